import { callerMetadata, type Logger } from '@noted/kit';
import { createGrpcClient } from '@noted/grpc';
import { usersV1 } from '@noted/proto';

/** Metered features the notes service consumes; the names are the users' entitlement keys. */
export type QuotaFeature = 'notes_per_month';

/** Gives back a consumed unit when the work it paid for did not happen; never throws. */
export type QuotaRelease = () => Promise<void>;

/** The monthly allowances the users service keeps. */
export interface Quota {
  /**
   * Takes one unit of `feature` from the user's allowance for this month, or throws the users
   * service's error (NOTES_LEFT_NOT_ENOUGH when no notes are left).
   */
  consume(userId: string, feature: QuotaFeature): Promise<QuotaRelease>;
  close(): void;
}

export const createQuota = (options: {
  /** The users service's gRPC address. */
  address: string;
  internalSecret: string;
  logger: Logger;
  deadlineMs?: number;
}): Quota => {
  const client = createGrpcClient(usersV1.UsersService, options.address, {
    service: 'notes',
    deadlineMs: options.deadlineMs ?? 5_000,
    metadata: callerMetadata(options.internalSecret, 'notes'),
  });

  return {
    consume: async (userId, feature) => {
      const { period } = await client.consumeQuota({ userId, feature, amount: 1 });
      let released = false;
      return async () => {
        if (released) return;
        released = true;
        try {
          await client.releaseQuota({ userId, feature, amount: 1, period });
        } catch (error) {
          // The caller is already failing with its own error; a lost unit must not replace it.
          options.logger.error(
            { err: error, userId, feature, period },
            'could not give back a consumed quota unit',
          );
        }
      };
    },
    close: () => client.close(),
  };
};
