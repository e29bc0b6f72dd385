import type { Knex } from 'knex';

/**
 * A transaction opened by a unit of work. Events can only be recorded on one (`enqueueEvent`
 * asks for this type), so every write that announces something wakes the outbox relay.
 */
export type EventTransaction = Knex.Transaction & { readonly wakesOutboxRelay: true };

/** The connection a unit of work hands one statement that records its own event. */
export type EventConnection = Knex & { readonly wakesOutboxRelay: true };

/**
 * How a service writes: each unit commits, then wakes the outbox relay, so the events it
 * recorded go out at once rather than at the relay's next poll. Nothing is woken on failure.
 */
export interface UnitOfWork {
  /** Runs `work` in one transaction. */
  <T>(work: (trx: EventTransaction) => Promise<T>): Promise<T>;
  /** Runs one statement that is atomic without a transaction (see `writeWithEvent`). */
  statement<T>(write: (knex: EventConnection) => Promise<T>): Promise<T>;
}

/** The unit of work of a service's database; `wake` is its outbox relay's kick. */
export const createUnitOfWork = (knex: Knex, wake: () => void): UnitOfWork => {
  const inTransaction = async <T>(work: (trx: EventTransaction) => Promise<T>): Promise<T> => {
    const result = await knex.transaction((trx) => work(trx as EventTransaction));
    wake();
    return result;
  };
  const statement = async <T>(write: (db: EventConnection) => Promise<T>): Promise<T> => {
    const result = await write(knex as EventConnection);
    wake();
    return result;
  };
  return Object.assign(inTransaction, { statement });
};
