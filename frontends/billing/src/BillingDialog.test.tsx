import { AppError } from '@noted/api';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BillingDialog } from './BillingDialog';
import {
  fakeBillingApi,
  paymentsDisabledPlanList,
  paymentsDisabledStatus,
  planList,
  renderBilling,
  signedInAccount,
  subscriptionOf,
} from './testing';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const renderManage = (
  subscription = subscriptionOf({ planName: 'premium' }),
  list = planList(),
) => {
  const { api, billing } = fakeBillingApi(list);
  const account = signedInAccount(subscription);
  const onClose = vi.fn();
  const view = renderBilling(
    (shell) => <BillingDialog api={api} shell={shell} view="manage" onClose={onClose} />,
    { account },
  );
  return { ...view, billing, account, onClose };
};

const manageDialog = () => screen.findByRole('dialog', { name: 'Your plan' });

describe('the manage dialog', () => {
  it('shows the plan, its renewal and what it gives, with the ways to change it', async () => {
    renderManage();
    const dialog = await manageDialog();
    expect(within(dialog).getByText('Premium')).toBeTruthy();
    expect(within(dialog).getByText('Active')).toBeTruthy();
    expect(within(dialog).getByText('Renews on December 1, 2025')).toBeTruthy();
    expect(within(dialog).getByText('Unlimited notes')).toBeTruthy();
    for (const name of ['Cancel plan', 'Manage card and invoices', 'Change plan']) {
      expect(within(dialog).getByRole('button', { name })).toBeTruthy();
    }
  });

  it.each([
    ['active', { status: 'active' as const }, true],
    ['trialing', { status: 'trialing' as const, trialEndsAt: '2025-11-20T00:00:00.000Z' }, true],
    ['past due', { status: 'past_due' as const, paymentFailed: true }, false],
    ['unpaid', { status: 'unpaid' as const }, false],
    ['already cancelled at the end of the period', { cancelAtPeriodEnd: true }, false],
  ])('offers Cancel plan for a paid plan that is %s: %s', async (_, overrides, offered) => {
    renderManage(subscriptionOf({ planName: 'standard', ...overrides }));
    const dialog = await manageDialog();
    expect(within(dialog).queryByRole('button', { name: 'Cancel plan' }) !== null).toBe(offered);
  });

  it('offers no cancellation on the free plan, only the plans', async () => {
    renderManage(subscriptionOf());
    const dialog = await manageDialog();
    expect(within(dialog).queryByRole('button', { name: 'Cancel plan' })).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'See plans' }));
    expect(await screen.findByRole('dialog', { name: 'Choose a plan' })).toBeTruthy();
  });

  it('asks first, saying until when the plan is kept, then cancels at the end of the period', async () => {
    const { billing, account, shell } = renderManage();
    fireEvent.click(within(await manageDialog()).getByRole('button', { name: 'Cancel plan' }));

    const question = await screen.findByRole('alertdialog', { name: 'Cancel your Premium plan?' });
    expect(question.textContent).toContain('You keep Premium until December 1, 2025.');
    fireEvent.click(within(question).getByRole('button', { name: 'Keep my plan' }));
    expect(billing.cancel).not.toHaveBeenCalled();

    fireEvent.click(within(await manageDialog()).getByRole('button', { name: 'Cancel plan' }));
    fireEvent.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Cancel plan' }),
    );

    await vi.waitFor(() => expect(billing.cancel).toHaveBeenCalledTimes(1));
    await vi.waitFor(() =>
      expect(shell.toast).toHaveBeenCalledWith(
        'Your plan is cancelled. You keep Premium until December 1, 2025.',
        { type: 'success' },
      ),
    );
    expect(account.setSubscription).toHaveBeenCalledWith(
      expect.objectContaining({ cancelAtPeriodEnd: true }),
    );
    const dialog = await manageDialog();
    expect(
      within(dialog).getByText('Cancelled: you keep Premium until December 1, 2025'),
    ).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Keep my plan' })).toBeTruthy();
  });

  it('says there is nothing to cancel when the service answers 409', async () => {
    const { billing, shell, account } = renderManage();
    billing.cancel.mockRejectedValue(new AppError('CONFLICT', 'Nothing to cancel'));
    fireEvent.click(within(await manageDialog()).getByRole('button', { name: 'Cancel plan' }));
    fireEvent.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Cancel plan' }),
    );
    await vi.waitFor(() =>
      expect(shell.toast).toHaveBeenCalledWith('There is no plan to cancel.', { type: 'info' }),
    );
    expect(account.refresh).toHaveBeenCalled();
  });

  it('keeps a cancelled plan with the same plan and interval', async () => {
    const { billing, shell } = renderManage(
      subscriptionOf({ planName: 'standard', interval: 'year', cancelAtPeriodEnd: true }),
    );
    fireEvent.click(within(await manageDialog()).getByRole('button', { name: 'Keep my plan' }));
    await vi.waitFor(() =>
      expect(billing.change).toHaveBeenCalledWith({ plan: 'standard', interval: 'year' }),
    );
    await vi.waitFor(() =>
      expect(shell.toast).toHaveBeenCalledWith('You keep Standard; it renews as before.', {
        type: 'success',
      }),
    );
  });

  it("opens Stripe's portal for the card and invoices", async () => {
    const { shell } = renderManage();
    fireEvent.click(
      within(await manageDialog()).getByRole('button', { name: 'Manage card and invoices' }),
    );
    await vi.waitFor(() =>
      expect(shell.navigate).toHaveBeenCalledWith('https://billing.stripe.com/p/session/test_1', {
        allowExternal: true,
      }),
    );
  });

  it('shows the new plan after a subscriber changed it in the plans', async () => {
    renderManage(subscriptionOf({ planName: 'standard' }));
    fireEvent.click(within(await manageDialog()).getByRole('button', { name: 'Change plan' }));
    const plans = await screen.findByRole('dialog', { name: 'Choose a plan' });
    const choose = await within(plans).findByRole('button', { name: 'Choose Premium' });
    await vi.waitFor(() => expect((choose as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(choose);

    const dialog = await manageDialog();
    expect(await within(dialog).findByText('Premium')).toBeTruthy();
  });

  it('says a server without payments is free to use, and offers nothing that would fail', async () => {
    renderManage(paymentsDisabledStatus(), paymentsDisabledPlanList());
    const dialog = await manageDialog();
    expect(within(dialog).getByText('This server is free to use')).toBeTruthy();
    expect(within(dialog).queryByText('See plans')).toBeNull();
    // Only the dialog's own Close.
    expect(
      within(dialog)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['']);
  });

  it('opened on the plans without payments, says the same and shows no plans to choose', async () => {
    const { api, billing } = fakeBillingApi(paymentsDisabledPlanList());
    renderBilling(
      (shell) => <BillingDialog api={api} shell={shell} view="upgrade" onClose={vi.fn()} />,
      { account: signedInAccount(paymentsDisabledStatus()) },
    );
    const dialog = await manageDialog();
    expect(within(dialog).getByText('This server is free to use')).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'Choose a plan' })).toBeNull();
    expect(within(dialog).queryByRole('button', { name: /^Choose/ })).toBeNull();
    expect(billing.plans).not.toHaveBeenCalled();
  });
});
