import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PlanPanel } from './PlanPanel';
import {
  chineseBillingSets,
  fakeBillingApi,
  paymentsDisabledStatus,
  renderBilling,
  signedInAccount,
  subscriptionOf,
  unlimitedUsage,
  usageOf,
} from './testing';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const renderPanel = (
  account = signedInAccount(),
  options: Parameters<typeof renderBilling>[1] = {},
) => {
  const { api, billing } = fakeBillingApi();
  const view = renderBilling((shell) => <PlanPanel api={api} shell={shell} />, {
    account,
    ...options,
  });
  return { ...view, billing, account };
};

const panel = () => screen.findByRole('region', { name: 'Your plan' });

describe('the plan and usage panel', () => {
  it("says how many of the month's notes are left and when they reset, and the recording limit", async () => {
    const { account } = renderPanel();
    const section = await panel();
    expect(within(section).getByText('Free plan')).toBeTruthy();
    expect(
      within(section).getByText('37 of 100 notes left this month, resets on December 1'),
    ).toBeTruthy();
    expect(within(section).getByText('Recordings up to 1 minute')).toBeTruthy();
    expect(within(section).queryByRole('button', { name: 'Manage' })).toBeNull();
    fireEvent.click(within(section).getByRole('button', { name: 'Upgrade' }));
    expect(account.openBilling).toHaveBeenCalledWith('upgrade');
  });

  it('says a paid plan renews, has unlimited notes, and can be managed', async () => {
    const account = signedInAccount(subscriptionOf({ planName: 'premium' }), {
      usage: { ...usageOf(412, -1), recordingTimeLimit: 3600 },
    });
    renderPanel(account);
    const section = await panel();
    expect(within(section).getByText('Premium plan')).toBeTruthy();
    expect(within(section).getByText('Unlimited notes')).toBeTruthy();
    expect(within(section).getByText('Recordings up to 1 hour')).toBeTruthy();
    expect(within(section).getByText('Renews on December 1, 2025')).toBeTruthy();
    expect(within(section).queryByRole('button', { name: 'Upgrade' })).toBeNull();
    fireEvent.click(within(section).getByRole('button', { name: 'Manage' }));
    expect(account.openBilling).toHaveBeenCalledWith('manage');
  });

  it('says when a trial ends, and until when a cancelled plan is kept', async () => {
    renderPanel(
      signedInAccount(
        subscriptionOf({
          planName: 'standard',
          status: 'trialing',
          trialEndsAt: '2025-11-20T10:00:00.000Z',
        }),
      ),
    );
    expect(within(await panel()).getByText('Free trial until November 20, 2025')).toBeTruthy();
    cleanup();
    renderPanel(signedInAccount(subscriptionOf({ planName: 'standard', cancelAtPeriodEnd: true })));
    const section = await panel();
    expect(
      within(section).getByText('Cancelled: you keep Standard until December 1, 2025'),
    ).toBeTruthy();
    expect(within(section).getByText('Ends December 1, 2025')).toBeTruthy();
  });

  it('says the last payment failed, with a way to the card', async () => {
    const { shell } = renderPanel(
      signedInAccount(
        subscriptionOf({ planName: 'standard', status: 'past_due', paymentFailed: true }),
      ),
    );
    const section = await panel();
    expect(within(section).getByText('Payment failed')).toBeTruthy();
    expect(
      within(section).getByText('The last payment failed. Update your card to keep Standard.'),
    ).toBeTruthy();
    fireEvent.click(within(section).getByRole('button', { name: 'Update card' }));
    await vi.waitFor(() =>
      expect(shell.navigate).toHaveBeenCalledWith('https://billing.stripe.com/p/session/test_1', {
        allowExternal: true,
      }),
    );
  });

  it('says a server without payments is free to use: every feature, no limit, nothing to buy', async () => {
    renderPanel(signedInAccount(paymentsDisabledStatus(), { usage: unlimitedUsage() }));
    const section = await panel();
    const free = within(section).getByRole('region', { name: 'This server is free to use' });
    expect(free.textContent).toContain(
      'Every account has every feature, with no monthly limit. There is nothing to buy here.',
    );
    expect(within(section).queryByRole('button')).toBeNull();
    expect(within(section).queryByText('Free plan')).toBeNull();
    expect(within(section).queryByText(/Payments are not set up/)).toBeNull();
    expect(within(section).queryByRole('list')).toBeNull();
  });

  it("lists the limits a server's operator set, and the month's count, still with nothing to buy", async () => {
    renderPanel(
      signedInAccount(
        paymentsDisabledStatus({ FREE_NOTES_PER_MONTH: 50, FREE_EXPORT_PDF: false }),
        {
          usage: { ...usageOf(12, 50), recordingTimeLimit: -1 },
        },
      ),
    );
    const section = await panel();
    expect(
      within(section).getByText(
        'There is nothing to buy here. Whoever runs this server has set these limits:',
      ),
    ).toBeTruthy();
    const limits = within(section).getByRole('list', { name: 'Limits on this server' });
    expect(
      within(limits)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['50 notes a month', 'No PDF export']);
    expect(
      within(section).getByText('38 of 50 notes left this month, resets on December 1'),
    ).toBeTruthy();
    expect(within(section).queryByRole('button', { name: 'Upgrade' })).toBeNull();
  });

  it('stops offering Upgrade once the account learns the server takes no payments', async () => {
    const account = signedInAccount();
    renderPanel(account);
    const section = await panel();
    expect(within(section).getByRole('button', { name: 'Upgrade' })).toBeTruthy();
    act(() => account.setSubscription(paymentsDisabledStatus()));
    expect(await within(section).findByText('This server is free to use')).toBeTruthy();
    expect(within(section).queryByRole('button', { name: 'Upgrade' })).toBeNull();
  });

  it('says it is free to use in Chinese', async () => {
    renderPanel(signedInAccount(paymentsDisabledStatus(), { usage: unlimitedUsage() }), {
      chinese: chineseBillingSets,
    });
    const section = await screen.findByRole('region', { name: '我的套餐' });
    expect(within(section).getByText('此服务器免费使用')).toBeTruthy();
    expect(
      within(section).getByText('每个账户都能使用全部功能，没有每月限额，无需购买任何东西。'),
    ).toBeTruthy();
  });

  it('says the plan could not be loaded when the free plan stands in', async () => {
    renderPanel(
      signedInAccount(subscriptionOf({ entitlements: null, paymentsEnabled: false }), {
        subscriptionError: 'The server could not be reached',
        usage: undefined,
      }),
    );
    const section = await panel();
    expect(within(section).getByText(/^Your plan could not be loaded/).textContent).toBe(
      "Your plan could not be loaded (The server could not be reached); the free plan's limits show meanwhile.",
    );
    expect(within(section).queryByText('Payments are not set up on this server.')).toBeNull();
  });

  it('writes the usage in Chinese', async () => {
    renderPanel(signedInAccount(), { chinese: chineseBillingSets });
    const section = await screen.findByRole('region', { name: '我的套餐' });
    expect(within(section).getByText('本月还可写 37 / 100 条笔记，12月1日重置')).toBeTruthy();
  });
});
