import { AppError } from '@noted/api';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids a gRPC call names are checked before any query (Postgres refuses a malformed uuid). */
export const requireIds = (...ids: string[]) => {
  if (!ids.every((id) => UUID.test(id))) {
    throw new AppError('VALIDATION_FAILED', 'user_id and note_id must be UUIDs');
  }
};
