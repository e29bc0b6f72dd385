import type { PlanList } from '@noted/api';
import {
  ShellContext,
  paymentsDisabledIn,
  useAccountState,
  type AccountState,
  type ShellServices,
} from '@noted/ui';
import {
  Suspense,
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  type ReactNode,
} from 'react';
import { I18nextProvider } from 'react-i18next';
import type { BillingApi } from './api';
import { log } from './log';

interface BillingContextValue {
  /**
   * The server said it takes no payments (a call answered PAYMENTS_DISABLED, or the plans said
   * so), whatever the plan's status said before.
   */
  paymentsRefused: boolean;
  refusePayments: () => void;
}

const BillingContext = createContext<BillingContextValue>({
  paymentsRefused: false,
  refusePayments: () => undefined,
});

export const useBillingContext = () => useContext(BillingContext);

/**
 * What every exposed module of the billing remote stands in: the shell's i18n instance (given
 * here rather than trusted to come through the host's copy of react-i18next), its services,
 * and what the billing screens learn about payments while open.
 */
export function BillingRoot({ shell, children }: { shell: ShellServices; children: ReactNode }) {
  const [paymentsRefused, setPaymentsRefused] = useState(false);
  const refusePayments = useCallback(() => setPaymentsRefused(true), []);
  const value = useMemo(
    () => ({ paymentsRefused, refusePayments }),
    [paymentsRefused, refusePayments],
  );
  return (
    <I18nextProvider i18n={shell.i18n}>
      <ShellContext.Provider value={shell}>
        <BillingContext.Provider value={value}>
          {/* Until the billing words have come (one small file) there is nothing to say. */}
          <Suspense fallback={null}>{children}</Suspense>
        </BillingContext.Provider>
      </ShellContext.Provider>
    </I18nextProvider>
  );
}

/** The signed-in user's plan and usage, as the shell keeps them. */
export const useAccount = (): AccountState => useAccountState();

/**
 * Whether this server takes no payments, as far as the billing screens know: the plan's status
 * said so, or a call or the plans did since. Then they say it is free to use, and offer nothing.
 */
export const usePaymentsOff = (): boolean => {
  const account = useAccount();
  const { paymentsRefused } = useBillingContext();
  return paymentsRefused || paymentsDisabledIn(account);
};

export interface PlanListState {
  list: PlanList | undefined;
  error: unknown;
  retry: () => void;
}

/** The plans, their prices and whether this server takes payments (a public call). */
export const usePlanList = (api: BillingApi): PlanListState => {
  const [loaded, setLoaded] = useState<{ list?: PlanList; error?: unknown }>({});
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let active = true;
    api.billing.plans().then(
      (list) => {
        if (active) setLoaded({ list });
      },
      (error: unknown) => {
        log.error('Loading the plans failed.', error);
        if (active) setLoaded({ error });
      },
    );
    return () => {
      active = false;
    };
  }, [api, attempt]);
  return {
    list: loaded.list,
    error: loaded.error,
    retry: () => {
      setLoaded({});
      setAttempt((n) => n + 1);
    },
  };
};
