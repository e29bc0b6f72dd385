export interface Log {
  warn: (message: string, detail?: unknown) => void;
  error: (message: string, detail?: unknown) => void;
}

/** The console, each line marked with the frontend it comes from, e.g. `[noted/notes]`. */
export const createLog = (scope: string): Log => {
  const prefix = `[noted/${scope}]`;
  return {
    warn: (message, detail) => {
      if (detail === undefined) console.warn(`${prefix} ${message}`);
      else console.warn(`${prefix} ${message}`, detail);
    },
    error: (message, detail) => {
      if (detail === undefined) console.error(`${prefix} ${message}`);
      else console.error(`${prefix} ${message}`, detail);
    },
  };
};

export const log = createLog('ui');
