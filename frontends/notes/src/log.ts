const prefix = '[noted/notes]';

export const log = {
  warn: (message: string, detail?: unknown): void => {
    if (detail === undefined) console.warn(`${prefix} ${message}`);
    else console.warn(`${prefix} ${message}`, detail);
  },
  error: (message: string, detail?: unknown): void => {
    if (detail === undefined) console.error(`${prefix} ${message}`);
    else console.error(`${prefix} ${message}`, detail);
  },
};
