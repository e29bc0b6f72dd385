import type { MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { callerMetadata } from '@noted/kit';
import { createGrpcClient } from '@noted/grpc';
import { notesV1 } from '@noted/proto';

/** The notes service as the ai service reads it: always one user's notes, by their owner. */
export const createNotesClient = (options: { address: string; internalSecret: string }) => {
  const client = createGrpcClient(notesV1.NotesService, options.address, {
    service: 'ai',
    deadlineMs: 10_000,
    metadata: callerMetadata(options.internalSecret, 'ai'),
  });
  return {
    get: async (userId: string, noteId: string) => (await client.getNote({ userId, noteId })).note,
    /** The notes among `noteIds` that exist, in the order asked. */
    many: async (userId: string, noteIds: string[]) =>
      noteIds.length === 0 ? [] : (await client.getNotes({ userId, noteIds })).notes,
    createdBetween: (userId: string, from: Date, to: Date, limit: number) =>
      client.listNotesCreatedBetween({
        userId,
        from: timestampFromDate(from),
        to: timestampFromDate(to),
        limit,
      }),
    search: async (userId: string, query: string, limit: number) =>
      (await client.searchNotes({ userId, query, limit })).hits,
    /**
     * Every note (or every note of `userId`) after `afterId`, in id order; with
     * `updatedBefore`, those last changed at or before it; `skipTotal` leaves total at 0.
     */
    scan: (
      afterId: string,
      limit: number,
      userId = '',
      options: { updatedBefore?: Date; skipTotal?: boolean } = {},
    ) =>
      client.scanNotes({
        afterId,
        limit,
        userId,
        skipTotal: options.skipTotal ?? false,
        ...(options.updatedBefore
          ? { updatedBefore: timestampFromDate(options.updatedBefore) }
          : {}),
      }),
    image: (userId: string, noteId: string, name: string) =>
      client.getNoteImage({ userId, noteId, name }),
    /** A captured note's source (its file, up to 25 MB, or its URL) and state. */
    capture: (userId: string, noteId: string) =>
      client.getCapture({ userId, noteId }, { deadlineMs: 60_000 }),
    captureStep: (userId: string, noteId: string, attempt: number, step: string) =>
      client.setCaptureStep({ userId, noteId, attempt, step }),
    attachCaptureFile: (
      userId: string,
      noteId: string,
      attempt: number,
      data: Uint8Array,
      fileName: string,
    ) =>
      client.attachCaptureFile({ userId, noteId, attempt, data, fileName }, { deadlineMs: 60_000 }),
    completeCapture: (request: MessageInitShape<typeof notesV1.CompleteCaptureRequestSchema>) =>
      client.completeCapture(request),
    retryWaitingCaptures: async (limit: number) =>
      (await client.retryWaitingCaptures({ limit })).queued,
    close: () => client.close(),
  };
};

export type NotesClient = ReturnType<typeof createNotesClient>;

/** The most ids one GetNotes takes. */
const GET_NOTES_LIMIT = 1000;

/**
 * The notes among `refs` that the notes service has now, read with their owners (one GetNotes
 * per user and thousand ids). A note left out was deleted: the notes service never brings one
 * back.
 */
export const notesStillThere = async (
  notes: Pick<NotesClient, 'many'>,
  refs: { noteId: string; userId: string }[],
): Promise<notesV1.Note[]> => {
  const byUser = new Map<string, string[]>();
  for (const { noteId, userId } of refs) {
    const ids = byUser.get(userId) ?? [];
    ids.push(noteId);
    byUser.set(userId, ids);
  }
  const found: notesV1.Note[] = [];
  for (const [userId, noteIds] of byUser) {
    for (let start = 0; start < noteIds.length; start += GET_NOTES_LIMIT) {
      found.push(...(await notes.many(userId, noteIds.slice(start, start + GET_NOTES_LIMIT))));
    }
  }
  return found;
};
