/* eslint-disable no-console -- the browser console is where the notes module's logged failures go */
const prefix = '[noted/notes]';

export const log = {
  error: (message: string, detail?: unknown): void => {
    if (detail === undefined) console.error(`${prefix} ${message}`);
    else console.error(`${prefix} ${message}`, detail);
  },
};
