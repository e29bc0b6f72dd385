import {
  create,
  fromBinary,
  toBinary,
  type DescMessage,
  type MessageInitShape,
  type MessageShape,
} from '@bufbuild/protobuf';
import * as billingV1 from './billing-v1.js';
import * as notesV1 from './notes-v1.js';
import * as usersV1 from './users-v1.js';

/**
 * One kind of event: the subject it is published on (`noted.<service>.v1.<entity>.<verb>`)
 * and the protobuf message it carries. Producers and consumers both take it from here.
 */
export interface EventType<Desc extends DescMessage> {
  readonly subject: string;
  readonly schema: Desc;
  /** The payload of an event with these fields. */
  encode(fields: MessageInitShape<Desc>): Uint8Array;
  decode(data: Uint8Array): MessageShape<Desc>;
}

const eventType = <Desc extends DescMessage>(subject: string, schema: Desc): EventType<Desc> => ({
  subject,
  schema,
  encode: (fields) => toBinary(schema, create(schema, fields)),
  decode: (data) => fromBinary(schema, data),
});

/**
 * The header that names the user an event concerns, on every event about one user's data: a
 * consumer that serves some users only (a realtime replica) skips the others' events without
 * decoding them.
 */
export const EVENT_USER_HEADER = 'noted-user-id';

/** The headers of an event about `userId`'s data. */
export const userEventHeaders = (userId: string) => ({ [EVENT_USER_HEADER]: userId });

/** A note was created, changed (content, pin, share, links) or deleted. */
export const noteEvents = {
  created: eventType('noted.notes.v1.note.created', notesV1.NoteCreatedSchema),
  updated: eventType('noted.notes.v1.note.updated', notesV1.NoteUpdatedSchema),
  deleted: eventType('noted.notes.v1.note.deleted', notesV1.NoteDeletedSchema),
};

/** The filter that subscribes to every one of `noteEvents`. */
export const noteEventsFilter = 'noted.notes.v1.note.*';

/** Spaced repetition: a user's notes fell due, or a user reviewed a note. */
export const reviewEvents = {
  due: eventType('noted.notes.v1.review.due', notesV1.ReviewDueSchema),
  marked: eventType('noted.notes.v1.review.marked', notesV1.ReviewMarkedSchema),
};

/** A note made from an image, audio, a link or a PDF needs its text read (notes' capture worker). */
export const captureEvents = {
  requested: eventType('noted.notes.v1.capture.requested', notesV1.CaptureRequestedSchema),
};

/** A user's plan, status or entitlements changed (billing); users updates the entitlements. */
export const billingEvents = {
  subscriptionChanged: eventType(
    'noted.billing.v1.subscription.changed',
    billingV1.SubscriptionChangedSchema,
  ),
};

/** A user deleted their account: every service erases what it holds of them. */
export const userEvents = {
  deleted: eventType('noted.users.v1.user.deleted', usersV1.UserDeletedSchema),
};

/** Someone sent product feedback; ids and the kind only (see events.proto). */
export const feedbackEvents = {
  received: eventType('noted.users.v1.feedback.received', usersV1.FeedbackReceivedSchema),
};
