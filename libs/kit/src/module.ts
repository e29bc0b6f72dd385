/**
 * A module of the one `noted` program (the Loki module-manager pattern). `start` returns when
 * the module serves; `stop` undoes it. Modules start in dependency order and stop in reverse.
 */
export interface RunningModule {
  /** True once the module can take traffic; aggregated into every /readyz. */
  ready(): boolean;
  stop(): Promise<void>;
}

export type ModuleEnv = Record<string, string | undefined>;
