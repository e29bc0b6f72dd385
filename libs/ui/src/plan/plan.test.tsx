import { freePlanFrom, planEntitlements, type SubscriptionStatus } from '@noted/api';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { FreeToUse } from './FreeToUse';
import { paymentsDisabledIn, planLacks, planLimitsOf } from './plan';

afterEach(cleanup);

const freeOn = (env: Parameters<typeof freePlanFrom>[0]) =>
  planEntitlements(freePlanFrom(env)).free;

const status = (overrides: Partial<SubscriptionStatus>): SubscriptionStatus => ({
  planName: 'free',
  status: 'inactive',
  expiresAt: null,
  isActive: false,
  entitlements: freeOn({ PAYMENTS_ENABLED: false }),
  interval: null,
  cancelAtPeriodEnd: false,
  trialEndsAt: null,
  paymentFailed: false,
  paymentsEnabled: false,
  ...overrides,
});

describe('what the plan holds back', () => {
  it('is nothing on a server without payments and its defaults', () => {
    expect(planLimitsOf(freeOn({ PAYMENTS_ENABLED: false }))).toEqual([]);
  });

  it("is the operator's limits there, in order: notes, recording, then what is left out", () => {
    expect(
      planLimitsOf(
        freeOn({
          PAYMENTS_ENABLED: false,
          FREE_NOTES_PER_MONTH: 30,
          FREE_RECORDING_TIME_LIMIT: 90,
          FREE_EXPORT_IMAGE: false,
        }),
      ),
    ).toEqual([
      { kind: 'notes', perMonth: 30 },
      { kind: 'recording', seconds: 90 },
      { kind: 'without', feature: 'image' },
    ]);
  });

  it('is unknown, and so nothing, when the plan could not be had', () => {
    expect(planLimitsOf(null)).toEqual([]);
    const failed = { subscription: status({ entitlements: null }), subscriptionError: 'down' };
    expect(paymentsDisabledIn(failed)).toBe(false);
    expect(planLacks(failed, 'export_pdf')).toBe(false);
  });

  it('lacks PDF on the free plan of a server with payments, not on one without', () => {
    const paid = status({
      paymentsEnabled: true,
      entitlements: freeOn({ PAYMENTS_ENABLED: true }),
    });
    expect(planLacks({ subscription: paid }, 'export_pdf')).toBe(true);
    expect(paymentsDisabledIn({ subscription: paid, subscriptionError: undefined })).toBe(false);
    const free = status({});
    expect(planLacks({ subscription: free }, 'export_pdf')).toBe(false);
    expect(paymentsDisabledIn({ subscription: free, subscriptionError: undefined })).toBe(true);
  });
});

describe('the free-to-use notice', () => {
  it('is a region named by its title, with the limits listed when there are any', () => {
    render(
      <FreeToUse
        title="This server is free to use"
        body="There is nothing to buy here."
        limits={['30 notes a month']}
        limitsLabel="Limits on this server"
        level={2}
      />,
    );
    const region = screen.getByRole('region', { name: 'This server is free to use' });
    expect(within(region).getByRole('heading', { level: 2 })).toBeTruthy();
    const list = within(region).getByRole('list', { name: 'Limits on this server' });
    expect(list.textContent).toBe('30 notes a month');
  });
});
