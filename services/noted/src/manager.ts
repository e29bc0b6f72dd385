import type { Logger, RunningModule } from '@noted/kit';

/**
 * The module manager of the one `noted` program, after Grafana Loki's: a static dependency
 * map, targets that pull in their dependencies, start in dependency order, stop in reverse,
 * one aggregate readiness.
 */
export interface ModuleDefinition<Name extends string, Context> {
  deps: readonly Name[];
  start: (context: Context) => Promise<RunningModule>;
}

export type ModuleMap<Name extends string, Context> = Record<Name, ModuleDefinition<Name, Context>>;

export class TargetError extends Error {
  override name = 'TargetError';
}

/** The modules a target list needs, in an order where each comes after its dependencies. */
export const resolveTargets = <Name extends string, Context>(
  modules: ModuleMap<Name, Context>,
  targets: readonly string[],
  all: readonly Name[],
): Name[] => {
  const known = (name: string): name is Name => Object.hasOwn(modules, name);
  const order: Name[] = [];
  const visiting = new Set<Name>();
  const visit = (name: Name, path: Name[]) => {
    if (order.includes(name)) return;
    if (visiting.has(name))
      throw new TargetError(`dependency cycle: ${[...path, name].join(' -> ')}`);
    visiting.add(name);
    for (const dep of modules[name].deps) visit(dep, [...path, name]);
    visiting.delete(name);
    order.push(name);
  };
  for (const target of targets) {
    if (target === 'all') {
      for (const name of all) visit(name, []);
    } else if (known(target)) {
      visit(target, []);
    } else {
      throw new TargetError(
        `unknown target "${target}"; targets are all, ${Object.keys(modules).join(', ')}`,
      );
    }
  }
  return order;
};

export interface RunningModules {
  names: string[];
  ready: () => boolean;
  /** Stops every started module, in reverse start order; safe to call more than once. */
  stop: () => Promise<void>;
}

export const startModules = async <Name extends string, Context>(
  modules: ModuleMap<Name, Context>,
  order: readonly Name[],
  context: Context,
  logger: Logger,
): Promise<RunningModules> => {
  const started: { name: Name; module: RunningModule }[] = [];
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
      const module = await modules[name].start(context);
      started.push({ name, module });
      logger.info({ module: name, ms: Date.now() - startedAt }, 'module started');
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    names: started.map(({ name }) => name),
    ready: () => started.every(({ module }) => module.ready()),
    stop,
  };
};
