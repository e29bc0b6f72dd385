import { useMessages, type MessageLoader } from '@noted/ui';
import { errorMessage } from '@noted/ui';

/** The billing remote's message set, fetched per language when a billing screen first shows. */
export const billingMessages = {
  billing: (locale) => import(`./messages/${locale}/billing.json`),
} satisfies Record<string, MessageLoader>;

/** `useMessages` of @noted/ui for the billing set. */
export const useBillingMessages = () => useMessages('billing', billingMessages.billing);

export type Translate = ReturnType<typeof useBillingMessages>['t'];

/** What to show for a caught error: its own message, or "Something went wrong." translated. */
export const useErrorText = () => {
  const { t } = useBillingMessages();
  return (error: unknown) => errorMessage(error) || t('common.unknownError');
};
