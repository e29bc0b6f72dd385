import { checkoutSessionKey } from '@noted/ui';
import { createTestAccount } from '@noted/ui/testing';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SubscriptionPage } from './SubscriptionPage';
import { fakeBillingApi, renderBilling, signedInAccount, subscriptionOf } from './testing';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  sessionStorage.clear();
});

const renderPage = (page: 'success' | 'cancel', account: ReturnType<typeof createTestAccount>) => {
  const { api } = fakeBillingApi();
  return renderBilling((shell) => <SubscriptionPage api={api} shell={shell} page={page} />, {
    account,
    path: `/subscription/${page}?session_id=cs_test_back`,
  });
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

  it('waits for the account before asking', async () => {
    const account = createTestAccount({ phase: 'loading' });
    renderPage('success', account);
    expect(screen.getByRole('status').textContent).toBe('Confirming your payment…');
    expect(account.refresh).not.toHaveBeenCalled();
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
});
