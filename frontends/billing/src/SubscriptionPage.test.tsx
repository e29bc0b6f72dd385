import { checkoutSessionKey } from '@noted/ui';
import { createTestAccount } from '@noted/ui/testing';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SubscriptionPage } from './SubscriptionPage';
import {
  chineseBillingSets,
  fakeBillingApi,
  paymentsDisabledStatus,
  renderBilling,
  signedInAccount,
  subscriptionOf,
  unlimitedUsage,
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

const renderPage = (
  page: 'success' | 'cancel',
  account: ReturnType<typeof createTestAccount>,
  options: Parameters<typeof renderBilling>[1] = {},
) => {
  const { api } = fakeBillingApi();
  return renderBilling((shell) => <SubscriptionPage api={api} shell={shell} page={page} />, {
    account,
    path: `/subscription/${page}?session_id=cs_test_back`,
    ...options,
  });
};

/** A page says the server is free to use, with nothing about a payment, and leads to the notes. */
const expectFreeToUse = () => {
  const heading = screen.getByRole('heading', { level: 1 });
  expect(heading.textContent).toBe('This server is free to use');
  expect(
    screen.getByText(
      'Every account has every feature, with no monthly limit. There is nothing to buy here.',
    ),
  ).toBeTruthy();
  expect(screen.getByRole('link', { name: 'Go to my notes' }).getAttribute('href')).toBe('/');
  expect(screen.queryByText(/payment/i)).toBeNull();
  expect(screen.queryByRole('button')).toBeNull();
};

describe('the page Stripe returns to after paying', () => {
  it("has the shell's account verify the checkout of the address, then shows what the plan gives", async () => {
    const account = signedInAccount(subscriptionOf());
    vi.mocked(account.refresh).mockImplementation(async () => {
      account.setSubscription(subscriptionOf({ planName: 'premium' }));
      return account.get();
    });
    renderPage('success', account);

    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe(
      'Welcome to Premium',
    );
    expect(account.refresh).toHaveBeenCalledWith({ sessionId: 'cs_test_back' });
    const gives = screen.getByRole('list', { name: 'What Premium gives' });
    expect(within(gives).getByText('Unlimited notes')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to my notes' }).getAttribute('href')).toBe('/');
  });

  it('waits for the account before asking, saying nothing yet of a payment', async () => {
    const account = createTestAccount({ phase: 'loading' });
    renderPage('success', account);
    expect(screen.getByRole('status').textContent).toBe('Loading your plan…');
    expect(account.refresh).not.toHaveBeenCalled();
  });

  it('on a server without payments, says it is free to use and asks nothing', async () => {
    const account = signedInAccount(paymentsDisabledStatus(), { usage: unlimitedUsage() });
    renderPage('success', account);
    await screen.findByRole('heading', { level: 1 });
    expectFreeToUse();
    expect(account.refresh).not.toHaveBeenCalled();
  });

  it('says it is free to use once the verification finds the server takes no payments', async () => {
    const account = signedInAccount(subscriptionOf());
    vi.mocked(account.refresh).mockImplementation(async () => {
      account.setSubscription(paymentsDisabledStatus());
      return account.get();
    });
    renderPage('success', account);
    await screen.findByRole('heading', { level: 1, name: 'This server is free to use' });
    expectFreeToUse();
  });

  it("lists the operator's limits, in Chinese too", async () => {
    const account = signedInAccount(paymentsDisabledStatus({ FREE_RECORDING_TIME_LIMIT: 300 }));
    renderPage('success', account, { chinese: chineseBillingSets });
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('此服务器免费使用');
    const limits = screen.getByRole('list', { name: '此服务器的限制' });
    expect(limits.textContent).toBe('单次录音最长 5分钟');
    expect(screen.getByRole('link', { name: '前往我的笔记' })).toBeTruthy();
  });

  it('says the payment is being confirmed while the plan is still free, and checks again', async () => {
    const account = signedInAccount(subscriptionOf(), {
      subscriptionError: 'The server could not be reached',
    });
    renderPage('success', account);

    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe(
      'Thank you! Your payment is being confirmed',
    );
    expect(
      screen.getByText('Your plan could not be loaded: The server could not be reached'),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Check again' }));
    await vi.waitFor(() => expect(account.refresh).toHaveBeenCalledTimes(2));
  });
});

describe('the page Stripe returns to after leaving the checkout', () => {
  it('says nothing was charged, offers the plans again and forgets the checkout', async () => {
    sessionStorage.setItem(checkoutSessionKey, 'cs_test_left');
    const { shell } = renderPage('cancel', signedInAccount());
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe(
      'Payment cancelled',
    );
    expect(screen.getByText(/nothing was charged/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'See plans again' }));
    expect(shell.offerUpgrade).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('link', { name: 'Go back to my notes' })).toBeTruthy();
    expect(sessionStorage.getItem(checkoutSessionKey)).toBeNull();
  });

  it('on a server without payments, says it is free to use instead of offering the plans', async () => {
    renderPage('cancel', signedInAccount(paymentsDisabledStatus()));
    await screen.findByRole('heading', { level: 1 });
    expectFreeToUse();
  });
});
