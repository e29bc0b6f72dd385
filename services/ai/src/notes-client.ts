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
    /** Every note (or every note of `userId`) after `afterId`, in id order. */
    scan: (afterId: string, limit: number, userId = '') =>
      client.scanNotes({ afterId, limit, userId }),
    image: (userId: string, noteId: string, name: string) =>
      client.getNoteImage({ userId, noteId, name }),
    close: () => client.close(),
  };
};

export type NotesClient = ReturnType<typeof createNotesClient>;
