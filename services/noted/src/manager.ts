import type { Logger, RunningModule } from '@noted/kit';

/**
 * The module manager of the one `noted` program, after Grafana Loki's: a static dependency
 * map, targets that pull in their dependencies, start in dependency order, stop in reverse,
 * one aggregate readiness. A module is handed what the modules it names provide, and no more.
 */
export interface ModuleDefinition<Name extends string, Context> {
  /** Modules that must run in this process, started before this one (the bus). */
  deps: readonly Name[];
  /**
   * Modules whose endpoints this one calls. One that runs in this process starts first and
   * this module is handed its endpoints; one that runs elsewhere is found by configuration.
   */
  reads: readonly Name[];
  /** `given` holds what the modules of `deps` and `reads` started here provide. */
  start(context: Context, given: Partial<Record<Name, unknown>>): Promise<StartedModule>;
}

export interface StartedModule extends RunningModule {
  /** What the module gives the modules that name it: the bus, or where it listens. */
  provides?: unknown;
}

export type ModuleMap<Name extends string, Context> = Record<Name, ModuleDefinition<Name, Context>>;

export class TargetError extends Error {
  override name = 'TargetError';
}

/**
 * The modules a target list needs (the targets and, transitively, their deps), in an order
 * where each comes after its deps and after the modules it reads that run here too.
 */
export const resolveTargets = <Name extends string, Context>(
  modules: ModuleMap<Name, Context>,
  targets: readonly string[],
  all: readonly Name[],
): Name[] => {
  const known = (name: string): name is Name => Object.hasOwn(modules, name);
  const wanted: Name[] = targets.flatMap((target) => {
    if (target === 'all') return [...all];
    if (known(target)) return [target];
    throw new TargetError(
      `unknown target "${target}"; targets are all, ${Object.keys(modules).join(', ')}`,
    );
  });
  const chosen = new Set<Name>();
  const choose = (name: Name) => {
    if (chosen.has(name)) return;
    chosen.add(name);
    modules[name].deps.forEach(choose);
  };
  wanted.forEach(choose);

  const order: Name[] = [];
  const visiting = new Set<Name>();
  const visit = (name: Name, path: Name[]) => {
    if (order.includes(name)) return;
    if (visiting.has(name))
      throw new TargetError(`dependency cycle: ${[...path, name].join(' -> ')}`);
    visiting.add(name);
    const { deps, reads } = modules[name];
    for (const before of [...deps, ...reads.filter((read) => chosen.has(read))]) {
      visit(before, [...path, name]);
    }
    visiting.delete(name);
    order.push(name);
  };
  for (const name of wanted) visit(name, []);
  return order;
};

export interface RunningModules<Name extends string = string> {
  names: string[];
  /** What each started module provides, by module. */
  provided: Partial<Record<Name, unknown>>;
  ready: () => boolean;
  /** Stops every started module, in reverse start order; safe to call more than once. */
  stop: () => Promise<void>;
}

export const startModules = async <Name extends string, Context>(
  modules: ModuleMap<Name, Context>,
  order: readonly Name[],
  context: Context,
  logger: Logger,
): Promise<RunningModules<Name>> => {
  const started: { name: Name; module: RunningModule }[] = [];
  const provided: Partial<Record<Name, unknown>> = {};
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      for (const { name, module } of [...started].reverse()) {
        try {
          await module.stop();
          logger.info({ module: name }, 'module stopped');
        } catch (error) {
          logger.error({ err: error, module: name }, 'module failed to stop');
        }
      }
    })();
    return stopping;
  };
  try {
    for (const name of order) {
      const startedAt = Date.now();
      const { deps, reads } = modules[name];
      const given: Partial<Record<Name, unknown>> = {};
      for (const other of [...deps, ...reads]) {
        if (Object.hasOwn(provided, other)) given[other] = provided[other];
      }
      const module = await modules[name].start(context, given);
      started.push({ name, module });
      if (module.provides !== undefined) provided[name] = module.provides;
      logger.info({ module: name, ms: Date.now() - startedAt }, 'module started');
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    names: started.map(({ name }) => name),
    provided,
    ready: () => started.every(({ module }) => module.ready()),
    stop,
  };
};
