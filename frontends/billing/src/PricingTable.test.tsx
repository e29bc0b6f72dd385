import { AppError } from '@noted/api';
import { checkoutSessionKey } from '@noted/ui';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PricingTable } from './PricingTable';
import {
  chineseBillingSets,
  disabledError,
  fakeBillingApi,
  fakePaymentsLoader,
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
  sessionStorage.clear();
});

const card = async (name: string) => screen.findByRole('listitem', { name });

describe('the pricing table', () => {
  it('shows each plan with its price, trial and entitlements in words, per month or per year', async () => {
    const { api } = fakeBillingApi();
    renderBilling((shell) => <PricingTable api={api} shell={shell} />);

    const free = await card('Free');
    expect(within(free).getByText('Free', { selector: '.billing-price-amount' })).toBeTruthy();
    expect(within(free).getByText('100 notes a month')).toBeTruthy();
    expect(within(free).getByText('Recordings up to 1 minute')).toBeTruthy();
    expect(within(free).getByText('Export to Markdown')).toBeTruthy();

    const standard = await card('Standard');
    expect(within(standard).getByText('$5')).toBeTruthy();
    expect(within(standard).getByText('per month')).toBeTruthy();
    expect(within(standard).getByText('14-day free trial')).toBeTruthy();
    expect(within(standard).getByText('1,000 notes a month')).toBeTruthy();
    expect(within(standard).getByText('Recordings up to 10 minutes')).toBeTruthy();
    expect(within(standard).getByText('Export to Markdown, PDF, and images')).toBeTruthy();

    const premium = await card('Premium');
    expect(within(premium).getByText('Unlimited notes')).toBeTruthy();
    expect(within(premium).getByText('Recordings up to 1 hour')).toBeTruthy();
    expect(within(premium).getByText('AI writer, chat and summaries')).toBeTruthy();

    fireEvent.click(screen.getByRole('radio', { name: /^Yearly/ }));
    expect(within(premium).getByText('$96')).toBeTruthy();
    expect(within(premium).getByText('per year')).toBeTruthy();
    expect(within(premium).getByText('$8 a month, billed yearly')).toBeTruthy();
    expect(screen.getByRole('radio', { name: 'Yearly Save 20%' })).toBeTruthy();
  });

  it('asks a visitor to sign in to choose, without loading Stripe.js', async () => {
    const { api, billing } = fakeBillingApi();
    const { shell, loader } = renderBilling((shell) => <PricingTable api={api} shell={shell} />);

    const premium = await card('Premium');
    fireEvent.click(within(premium).getByRole('button', { name: 'Sign in to choose' }));

    expect(shell.requestSignIn).toHaveBeenCalledTimes(1);
    expect(billing.checkout).not.toHaveBeenCalled();
    expect(loader).not.toHaveBeenCalled();
  });

  it('marks the current plan, and sends a new subscriber to Stripe’s checkout', async () => {
    const { api, billing } = fakeBillingApi();
    const { shell, loader } = renderBilling((shell) => <PricingTable api={api} shell={shell} />, {
      account: signedInAccount(),
    });

    const free = await card('Free');
    expect(within(free).getByText('Current plan', { selector: '.ui-badge' })).toBeTruthy();
    expect(
      (within(free).getByRole('button', { name: 'Current plan' }) as HTMLButtonElement).disabled,
    ).toBe(true);
    fireEvent.click(screen.getByRole('radio', { name: /^Yearly/ }));
    const choose = await screen.findByRole('button', { name: 'Choose Premium' });
    await vi.waitFor(() => expect((choose as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(choose);

    await vi.waitFor(() => expect(shell.navigate).toHaveBeenCalled());
    expect(loader).toHaveBeenCalledWith('pk_test_noted');
    expect(billing.checkout).toHaveBeenCalledWith({ plan: 'premium', interval: 'year' });
    expect(shell.navigate).toHaveBeenCalledWith('https://checkout.stripe.com/c/pay/cs_test_a1', {
      allowExternal: true,
    });
    expect(sessionStorage.getItem(checkoutSessionKey)).toBe('cs_test_a1');
  });

  it('changes the plan of a subscriber instead, and takes the new status', async () => {
    const { api, billing } = fakeBillingApi();
    const onChanged = vi.fn();
    const account = signedInAccount(subscriptionOf({ planName: 'standard' }));
    const { shell } = renderBilling(
      (shell) => <PricingTable api={api} shell={shell} onChanged={onChanged} />,
      { account },
    );

    const standard = await card('Standard');
    expect(within(standard).getByRole('button', { name: 'Current plan' })).toBeTruthy();
    const choose = await screen.findByRole('button', { name: 'Choose Premium' });
    await vi.waitFor(() => expect((choose as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(choose);

    await vi.waitFor(() => expect(onChanged).toHaveBeenCalled());
    expect(billing.checkout).not.toHaveBeenCalled();
    expect(billing.change).toHaveBeenCalledWith({ plan: 'premium', interval: 'month' });
    expect(account.setSubscription).toHaveBeenCalledWith(
      expect.objectContaining({ planName: 'premium' }),
    );
    expect(shell.toast).toHaveBeenCalledWith('You are now on Premium.', { type: 'success' });
  });

  it('changes the plan when the checkout answers that the user subscribed meanwhile (409)', async () => {
    const { api, billing } = fakeBillingApi();
    billing.checkout.mockRejectedValue(new AppError('CONFLICT', 'Already subscribed'));
    const { shell } = renderBilling((shell) => <PricingTable api={api} shell={shell} />, {
      account: signedInAccount(),
    });
    const choose = await screen.findByRole('button', { name: 'Choose Standard' });
    await vi.waitFor(() => expect((choose as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(choose);

    await vi.waitFor(() => expect(billing.change).toHaveBeenCalled());
    expect(shell.navigate).not.toHaveBeenCalled();
  });

  it('says a server without payments is free to use, with no price cards and nothing to buy', async () => {
    const { api } = fakeBillingApi(paymentsDisabledPlanList());
    const loader = fakePaymentsLoader();
    renderBilling((shell) => <PricingTable api={api} shell={shell} />, {
      account: signedInAccount(paymentsDisabledStatus()),
      loader,
    });
    const free = await screen.findByRole('region', { name: 'This server is free to use' });
    expect(free.textContent).toContain('Every account has every feature, with no monthly limit.');
    expect(screen.queryByRole('list', { name: 'Plans' })).toBeNull();
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.queryByText(/Payments are not set up/)).toBeNull();
    expect(loader).not.toHaveBeenCalled();
  });

  it("lists a server's own limits to a visitor from the free plan the plans give", async () => {
    const { api } = fakeBillingApi(
      paymentsDisabledPlanList({ FREE_NOTES_PER_MONTH: 200, FREE_EXPORT_IMAGE: false }),
    );
    renderBilling((shell) => <PricingTable api={api} shell={shell} />);
    const limits = await screen.findByRole('list', { name: 'Limits on this server' });
    expect(
      within(limits)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['200 notes a month', 'No image export']);
    expect(screen.queryByRole('button', { name: /^(Choose|Sign in)/ })).toBeNull();
  });

  it.each([
    ['the server gives no publishable key', { list: planList({ publishableKey: null }) }],
    ['Stripe.js cannot be loaded', { fail: true }],
  ])(
    'says payments are not set up when %s, still showing the plans and the current one',
    async (_, { list, fail }: { list?: ReturnType<typeof planList>; fail?: boolean }) => {
      const { api } = fakeBillingApi(list);
      renderBilling((shell) => <PricingTable api={api} shell={shell} />, {
        account: signedInAccount(),
        loader: fakePaymentsLoader({ fail }),
      });

      expect(await screen.findByText('Payments are not set up on this server.')).toBeTruthy();
      expect(await card('Premium')).toBeTruthy();
      expect(within(await card('Free')).getByRole('button', { name: 'Current plan' })).toBeTruthy();
      expect(screen.queryByRole('button', { name: /^Choose/ })).toBeNull();
      expect(screen.queryByRole('alert')).toBeNull();
    },
  );

  it('says the server is free to use once a call answers PAYMENTS_DISABLED', async () => {
    const { api, billing } = fakeBillingApi();
    billing.checkout.mockRejectedValue(disabledError());
    const { shell } = renderBilling((shell) => <PricingTable api={api} shell={shell} />, {
      account: signedInAccount(),
    });
    const choose = await screen.findByRole('button', { name: 'Choose Premium' });
    await vi.waitFor(() => expect((choose as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(choose);

    expect(await screen.findByText('This server is free to use')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Choose/ })).toBeNull();
    expect(shell.toast).not.toHaveBeenCalled();
  });

  it('says why the plans could not be loaded, and loads them again on Try again', async () => {
    const { api, billing } = fakeBillingApi();
    billing.plans.mockRejectedValueOnce(
      new AppError('UNAVAILABLE', 'The server could not be reached'),
    );
    renderBilling((shell) => <PricingTable api={api} shell={shell} />);

    expect((await screen.findByRole('alert')).textContent).toContain(
      'The plans could not be loaded: The server could not be reached',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await card('Premium')).toBeTruthy();
  });

  it('speaks Chinese from its own message set', async () => {
    const { api } = fakeBillingApi();
    renderBilling((shell) => <PricingTable api={api} shell={shell} />, {
      chinese: chineseBillingSets,
    });
    const premium = await card('高级版');
    expect(within(premium).getByText('笔记数量不限')).toBeTruthy();
    expect(within(premium).getByText('单次录音最长 1小时')).toBeTruthy();
  });
});
