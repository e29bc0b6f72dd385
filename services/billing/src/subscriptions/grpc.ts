import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import type { ServiceImpl } from '@noted/grpc';
import { entitlementsToMessage, type billingV1 } from '@noted/proto';
import type { BillingContext } from '../context.js';
import { billingStatusOf } from './usecases.js';

export const billingGrpc = (ctx: BillingContext): ServiceImpl<typeof billingV1.BillingService> => ({
  getSubscription: async (request) => {
    const status = await billingStatusOf(ctx, request.userId);
    return {
      subscription: {
        userId: request.userId,
        plan: status.planName,
        status: status.status,
        isActive: status.isActive,
        cancelAtPeriodEnd: status.cancelAtPeriodEnd,
        entitlements: entitlementsToMessage(status.entitlements ?? {}),
        ...(status.expiresAt ? { expiresAt: timestampFromDate(new Date(status.expiresAt)) } : {}),
      },
    };
  },
});
