import { AppError, entitlementNames } from '@noted/api';
import { callerMetadata, type Logger } from '@noted/kit';
import { createGrpcClient } from '@noted/grpc';
import { entitlementsFromMessage, usersV1 } from '@noted/proto';

/** The recording limit of a user whose plan does not say (spec: default 60). */
export const DEFAULT_RECORDING_TIME_LIMIT = 60;

/** Metered features the notes service consumes; the names are the users' entitlement keys. */
export type QuotaFeature = 'notes_per_month';

/** Gives back a consumed unit when the work it paid for did not happen; never throws. */
export type QuotaRelease = () => Promise<void>;

/** A unit charged for a note and not yet settled or given back (see `quotaReconcile`). */
export interface PendingCharge {
  userId: string;
  noteId: string;
}

/** The monthly allowances the users service keeps. */
export interface Quota {
  /**
   * Takes one unit of `feature` from the user's allowance for this month for the note
   * `noteId`, or throws the users service's error (NOTES_LEFT_NOT_ENOUGH when no notes are
   * left). Keyed by the note: asked again for the same note, it charges nothing more. The
   * charge is pending until the note's `note.created` settles it, the release given back
   * gives it back, or the sweep finds the note was never made.
   */
  consume(userId: string, feature: QuotaFeature, noteId: string): Promise<QuotaRelease>;
  /**
   * Gives back the unit of a note whose capture failed, settled or not: it read nothing, so it
   * costs nothing until read again (a retry charges it anew). Never throws; a failure is logged.
   */
  refund(userId: string, feature: QuotaFeature, noteId: string): Promise<void>;
  /** The longest recording the user's plan takes, in seconds; -1 is unlimited. */
  recordingLimit(userId: string): Promise<number>;
  close(): void;
}

/** The charges taken for notes, as the sweep (`quotaReconcile`) settles or releases them. */
export interface QuotaCharges {
  /** Charges of `feature` pending for longer than `olderThanSeconds`, oldest first. */
  pending(feature: QuotaFeature, olderThanSeconds: number, limit: number): Promise<PendingCharge[]>;
  /** The notes exist: their charges are final. */
  settle(userId: string, feature: QuotaFeature, noteIds: string[]): Promise<void>;
  /** The notes were never made: their pending charges go back. */
  release(userId: string, feature: QuotaFeature, noteIds: string[]): Promise<void>;
}

/** A create waiting for its unit: the period it counts against, or why there is none. */
interface Asker {
  noteId: string;
  resolve: (period: string) => void;
  reject: (error: unknown) => void;
}

/** The users service's answers meaning "not that many left". */
const overQuota = new Set(['NOTES_LEFT_NOT_ENOUGH', 'FORBIDDEN']);

export const createQuota = (options: {
  /** The users service's gRPC address. */
  address: string;
  internalSecret: string;
  logger: Logger;
  deadlineMs?: number;
}): Quota & QuotaCharges => {
  const client = createGrpcClient(usersV1.UsersService, options.address, {
    service: 'notes',
    deadlineMs: options.deadlineMs ?? 5_000,
    metadata: callerMetadata(options.internalSecret, 'notes'),
  });

  const askers = new Map<string, Asker[]>();

  const takeAlone = (userId: string, feature: QuotaFeature, asker: Asker) => {
    client
      .consumeQuota({ userId, feature, refs: [asker.noteId] })
      .then(({ period }) => asker.resolve(period), asker.reject);
  };

  const takeFor = (userId: string, feature: QuotaFeature, batch: Asker[]) => {
    const [only, ...others] = batch;
    if (only && others.length === 0) return takeAlone(userId, feature, only);
    client.consumeQuota({ userId, feature, refs: batch.map((asker) => asker.noteId) }).then(
      ({ period }) => batch.forEach((asker) => asker.resolve(period)),
      (error: unknown) => {
        // Not all of them fit: each asks alone, so exactly the units left are handed out.
        if (error instanceof AppError && overQuota.has(error.code)) {
          batch.forEach((asker) => takeAlone(userId, feature, asker));
        } else {
          batch.forEach((asker) => asker.reject(error));
        }
      },
    );
  };

  /**
   * Units one user asks for during one turn of the event loop (creates arriving together)
   * are taken with one call for all of them.
   */
  const take = (userId: string, feature: QuotaFeature, noteId: string) =>
    new Promise<string>((resolve, reject) => {
      const key = `${userId} ${feature}`;
      const batch = askers.get(key);
      if (batch) {
        batch.push({ noteId, resolve, reject });
        return;
      }
      const first = [{ noteId, resolve, reject }];
      askers.set(key, first);
      setImmediate(() => {
        askers.delete(key);
        takeFor(userId, feature, first);
      });
    });

  return {
    consume: async (userId, feature, noteId) => {
      const period = await take(userId, feature, noteId);
      let released = false;
      return async () => {
        if (released) return;
        released = true;
        try {
          await client.releaseQuota({ userId, feature, refs: [noteId], period });
        } catch (error) {
          // The caller is already failing with its own error; the sweep gives the unit back.
          options.logger.error(
            { err: error, userId, feature, period },
            'could not give back a consumed quota unit',
          );
        }
      };
    },
    refund: async (userId, feature, noteId) => {
      try {
        await client.releaseQuota({ userId, feature, refs: [noteId], refund: true });
      } catch (error) {
        options.logger.warn(
          { err: error, userId, feature, noteId },
          'could not give back the unit of a failed capture',
        );
      }
    },
    pending: async (feature, olderThanSeconds, limit) =>
      (await client.listPendingQuota({ feature, olderThanSeconds, limit })).pending.map(
        (charge) => ({ userId: charge.userId, noteId: charge.ref }),
      ),
    settle: async (userId, feature, noteIds) => {
      if (noteIds.length > 0) await client.settleQuota({ userId, feature, refs: noteIds });
    },
    release: async (userId, feature, noteIds) => {
      if (noteIds.length > 0) await client.releaseQuota({ userId, feature, refs: noteIds });
    },
    recordingLimit: async (userId) => {
      const { user } = await client.getUser({ userId });
      const limit = entitlementsFromMessage(user?.entitlements ?? {})[
        entitlementNames.recordingTimeLimit
      ];
      return typeof limit === 'number' ? limit : DEFAULT_RECORDING_TIME_LIMIT;
    },
    close: () => client.close(),
  };
};
