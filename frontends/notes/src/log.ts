const prefix = '[noted/notes]';

export const log = {
  error: (message: string, detail?: unknown): void => {
    if (detail === undefined) console.error(`${prefix} ${message}`);
    else console.error(`${prefix} ${message}`, detail);
  },
};
