import type { Knex } from 'knex';
import type { UnitOfWork } from '@noted/db';
import type { Logger } from '@noted/kit';
import type { ObjectStore } from '@noted/storage';
import type { Quota } from './quota.js';

/** What the notes service's use-cases are given; every feature folder takes it from here. */
export interface NotesContext {
  /** For reads; writes go through `unitOfWork`. */
  knex: Knex;
  /** Every write: it commits, then wakes the outbox relay for the events it recorded. */
  unitOfWork: UnitOfWork;
  /** The users service's monthly allowances; creating a note takes one of notes_per_month. */
  quota: Quota;
}

/** The use-cases that put images in the object store or take them out also have the store. */
export interface ImagesContext extends NotesContext {
  objects: ObjectStore;
  logger: Logger;
}

/** Taking a capture's URL, the service refuses one naming a private address at once. */
export interface CaptureContext extends ImagesContext {
  /** Private addresses a URL may name all the same (CAPTURE_FETCH_ALLOW_ADDRESSES). */
  fetchAllowAddresses?: readonly string[];
}

/** The review use-cases that enrol notes also know when a new note first falls due. */
export interface ReviewContext extends NotesContext {
  /** Seconds from a note's creation to its first review (NOTES_REVIEW_FIRST_DUE_SECONDS). */
  reviewFirstDueSeconds: number;
}
