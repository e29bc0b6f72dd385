import { AsyncLocalStorage } from 'node:async_hooks';

/** What every log line of one request carries. */
export interface RequestContext {
  requestId?: string;
  userId?: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

export const runWithContext = <T>(context: RequestContext, fn: () => T): T =>
  storage.run({ ...storage.getStore(), ...context }, fn);

export const currentContext = (): RequestContext => storage.getStore() ?? {};

/** Adds fields (such as userId once known) to the context of the running request. */
export const extendContext = (fields: RequestContext): void => {
  const store = storage.getStore();
  if (store) Object.assign(store, fields);
};
