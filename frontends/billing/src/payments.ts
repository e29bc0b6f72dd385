import type { PlanList } from '@noted/api';
import { createContext, useContext, useEffect, useState } from 'react';
import { log } from './log';

/** Loads Stripe.js for a publishable key; resolves to null when it gives nothing to use. */
export type PaymentsLoader = (publishableKey: string) => Promise<unknown>;

/**
 * Stripe.js from its `pure` entry, so nothing reaches the page before a key is known; version
 * 'basil', the one @stripe/stripe-js 7 loads. It is there for Stripe's fraud signals: the
 * checkout itself is Stripe's own page, reached by its address.
 */
export const loadStripeJs: PaymentsLoader = async (publishableKey) => {
  const { loadStripe } = await import('@stripe/stripe-js/pure');
  return loadStripe(publishableKey);
};

/** Which loader the billing screens use; tests give one that needs no network. */
export const PaymentsLoaderContext = createContext<PaymentsLoader>(loadStripeJs);

const loads = new Map<string, Promise<boolean>>();

/** One attempt per key and page; a failure is logged and means no payments, nothing more. */
const paymentsClientFor = (load: PaymentsLoader, publishableKey: string): Promise<boolean> => {
  let loaded = loads.get(publishableKey);
  if (!loaded) {
    loaded = load(publishableKey).then(
      (client) => {
        if (client === null || client === undefined) {
          log.warn('Stripe.js gave no client: payments are off on this page.');
          return false;
        }
        return true;
      },
      (error: unknown) => {
        log.warn('Stripe.js could not be loaded: payments are off on this page.', error);
        return false;
      },
    );
    loads.set(publishableKey, loaded);
  }
  return loaded;
};

/** Forgets every load, for tests that load with another loader. */
export const forgetPaymentsClients = () => loads.clear();

export type PaymentsState = 'checking' | 'ready' | 'disabled';

/**
 * Whether this page can take payments (spec section 8): the server must say so and give a
 * publishable key, and Stripe.js must load with it. `load` false leaves Stripe.js alone (a
 * visitor who cannot choose yet): then the server's word alone counts.
 */
export const usePayments = (list: PlanList | undefined, { load = true } = {}): PaymentsState => {
  const loader = useContext(PaymentsLoaderContext);
  const key = list?.paymentsEnabled ? list.publishableKey : null;
  const [loaded, setLoaded] = useState<{ key: string; ok: boolean }>();
  useEffect(() => {
    if (!key || !load) return;
    let active = true;
    void paymentsClientFor(loader, key).then((ok) => {
      if (active) setLoaded({ key, ok });
    });
    return () => {
      active = false;
    };
  }, [key, load, loader]);
  if (!list) return 'checking';
  if (!list.paymentsEnabled || !list.publishableKey) return 'disabled';
  if (!load) return 'ready';
  if (loaded?.key !== key) return 'checking';
  return loaded.ok ? 'ready' : 'disabled';
};
