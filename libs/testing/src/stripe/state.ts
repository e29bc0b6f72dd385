import {
  addInterval,
  previousAttributes,
  priceObject,
  type List,
  type StripeCheckoutSession,
  type StripeCustomer,
  type StripeDeletedCustomer,
  type StripeEventType,
  type StripeInvoice,
  type StripePortalSession,
  type StripePrice,
  type StripeServerPrice,
  type StripeSubscription,
} from './objects.js';
import {
  allowOnly,
  applyMetadata,
  bool,
  int,
  invalid,
  newId,
  noSuch,
  obj,
  oneOf,
  str,
  StripeApiError,
  type Params,
} from './wire.js';

/** What checkout keeps besides the session object: what paying it starts. */
interface CheckoutRecord {
  session: StripeCheckoutSession;
  priceId: string;
  quantity: number;
  subscriptionMetadata: Record<string, string>;
  trialDays: number | undefined;
}

export interface StateOptions {
  prices: StripeServerPrice[];
  now: () => number;
  publicUrl: string;
  emit: (
    type: StripeEventType,
    object: object,
    previous?: Record<string, unknown> | undefined,
  ) => void;
}

const subscriptionStatuses = [
  'active',
  'all',
  'canceled',
  'ended',
  'incomplete',
  'incomplete_expired',
  'past_due',
  'paused',
  'trialing',
  'unpaid',
] as const;

const copy = <T>(value: T): T => structuredClone(value);
const asRecord = (value: object) => copy(value) as Record<string, unknown>;

/** The server's objects and every change to them; each change emits its events. */
export const createStripeState = ({ prices: configured, now, publicUrl, emit }: StateOptions) => {
  const prices = new Map<string, StripePrice>(
    configured.map((price) => [price.id, priceObject(price, now())]),
  );
  const customers = new Map<string, StripeCustomer>();
  /** Deleted customers: still retrievable (as `deleted: true`), usable in no request. */
  const deletedCustomers = new Map<string, StripeDeletedCustomer>();
  const checkouts = new Map<string, CheckoutRecord>();
  const subscriptions = new Map<string, StripeSubscription>();
  const invoices = new Map<string, StripeInvoice>();
  const portals = new Map<string, StripePortalSession>();

  const find = <T>(map: Map<string, T>, kind: string, id: string, param?: string): T => {
    const found = map.get(id);
    if (!found) throw noSuch(kind, id, param);
    return found;
  };
  const item = (subscription: StripeSubscription) => subscription.items.data[0]!;

  /** Any object by id, for `expand[]`. */
  const byId = (id: string): object | undefined =>
    customers.get(id) ??
    deletedCustomers.get(id) ??
    subscriptions.get(id) ??
    invoices.get(id) ??
    checkouts.get(id)?.session ??
    prices.get(id);

  const createInvoice = (
    subscription: StripeSubscription,
    options: {
      paid: boolean;
      reason: 'subscription_create' | 'subscription_cycle';
      trial: boolean;
    },
  ): StripeInvoice => {
    const { price, quantity, current_period_start, current_period_end } = item(subscription);
    const amount = options.trial ? 0 : (price.unit_amount ?? 0) * (quantity ?? 1);
    const id = newId('in');
    const invoice: StripeInvoice = {
      id,
      object: 'invoice',
      amount_due: amount,
      amount_paid: options.paid ? amount : 0,
      amount_remaining: options.paid ? 0 : amount,
      billing_reason: options.reason,
      created: now(),
      currency: price.currency,
      customer: subscription.customer,
      livemode: false,
      parent: {
        type: 'subscription_details',
        quote_details: null,
        subscription_details: {
          subscription: subscription.id,
          metadata: { ...subscription.metadata },
        },
      },
      period_end: current_period_start,
      period_start: current_period_start,
      status: options.paid ? 'paid' : 'open',
      status_transitions: {
        finalized_at: now(),
        marked_uncollectible_at: null,
        paid_at: options.paid ? now() : null,
        voided_at: null,
      },
      subtotal: amount,
      total: amount,
      lines: {
        object: 'list',
        data: [
          {
            id: newId('il'),
            object: 'line_item',
            amount,
            currency: price.currency,
            description: `${quantity ?? 1} × ${price.product} (at ${price.unit_amount} / ${price.recurring?.interval})`,
            invoice: id,
            livemode: false,
            metadata: {},
            parent: {
              type: 'subscription_item_details',
              invoice_item_details: null,
              subscription_item_details: {
                invoice_item: null,
                proration: false,
                proration_details: null,
                subscription: subscription.id,
                subscription_item: item(subscription).id,
              },
            },
            period: { start: current_period_start, end: current_period_end },
            pricing: {
              type: 'price_details',
              price_details: { price: price.id, product: price.product },
              unit_amount_decimal: price.unit_amount_decimal,
            },
            quantity: quantity ?? 1,
            subtotal: amount,
          },
        ],
        has_more: false,
        url: `/v1/invoices/${id}/lines`,
      },
    };
    invoices.set(id, invoice);
    subscription.latest_invoice = id;
    return invoice;
  };

  const startSubscription = (record: CheckoutRecord, customer: string) => {
    const price = prices.get(record.priceId)!;
    const start = now();
    const trialDays = record.trialDays ?? price.recurring?.trial_period_days ?? undefined;
    const trialEnd = trialDays ? start + trialDays * 86_400 : null;
    // During a trial Stripe's first period is the trial itself; the paid one starts at its end.
    const periodEnd = trialEnd ?? addInterval(start, price.recurring!.interval);
    const id = newId('sub');
    const subscription: StripeSubscription = {
      id,
      object: 'subscription',
      billing_cycle_anchor: trialEnd ?? start,
      cancel_at: null,
      cancel_at_period_end: false,
      canceled_at: null,
      collection_method: 'charge_automatically',
      created: start,
      currency: price.currency,
      customer,
      ended_at: null,
      items: {
        object: 'list',
        data: [
          {
            id: newId('si'),
            object: 'subscription_item',
            created: start,
            current_period_end: periodEnd,
            current_period_start: start,
            metadata: {},
            price: copy(price),
            quantity: record.quantity,
            subscription: id,
          },
        ],
        has_more: false,
        url: `/v1/subscription_items?subscription=${id}`,
      },
      latest_invoice: null,
      livemode: false,
      metadata: { ...record.subscriptionMetadata },
      start_date: start,
      status: trialEnd ? 'trialing' : 'active',
      trial_end: trialEnd,
      trial_start: trialEnd ? start : null,
    };
    subscriptions.set(id, subscription);
    const invoice = createInvoice(subscription, {
      paid: true,
      reason: 'subscription_create',
      trial: trialEnd !== null,
    });
    return { subscription, invoice, trial: trialEnd !== null };
  };

  /** Applies `change` and emits customer.subscription.updated with what it changed, if anything. */
  const updating = (subscription: StripeSubscription, change: () => void) => {
    const before = asRecord(subscription);
    change();
    const previous = previousAttributes(before, asRecord(subscription));
    if (Object.keys(previous).length > 0) {
      emit('customer.subscription.updated', subscription, previous);
    }
  };

  const scheduleCancel = (subscription: StripeSubscription, cancel: boolean) => {
    subscription.cancel_at_period_end = cancel;
    subscription.cancel_at = cancel ? item(subscription).current_period_end : null;
    subscription.canceled_at = cancel ? now() : null;
  };

  /** Checks every `items[n]` first and returns the change, so a refused request changes nothing. */
  const itemChanges = (subscription: StripeSubscription, entries: unknown) => {
    if (entries === undefined) return () => {};
    if (!Array.isArray(entries)) throw invalid('Invalid array: items', 'items');
    const changes = entries.map((entry: unknown, index) => {
      const name = `items[${index}]`;
      const params = obj({ entry }, 'entry', name)!;
      allowOnly(params, ['id', 'price', 'quantity'], name);
      const id = str(params, 'id', `${name}[id]`);
      if (id === undefined) {
        throw invalid(
          `This local Stripe server only changes existing items: pass ${name}[id]`,
          `${name}[id]`,
        );
      }
      const target = subscription.items.data.find((candidate) => candidate.id === id);
      if (!target) throw noSuch('subscription item', id, `${name}[id]`);
      const priceId = str(params, 'price', `${name}[price]`);
      const price =
        priceId === undefined ? undefined : find(prices, 'price', priceId, `${name}[price]`);
      const quantity = int(params, 'quantity', `${name}[quantity]`);
      return () => {
        if (price) target.price = copy(price);
        if (quantity !== undefined) target.quantity = quantity;
      };
    });
    return () => changes.forEach((change) => change());
  };

  /** The customer's latest subscription that is not canceled, else their latest. */
  const subscriptionOf = (customer: string): StripeSubscription | undefined => {
    const theirs = [...subscriptions.values()].filter((sub) => sub.customer === customer);
    return theirs.reverse().find((sub) => sub.status !== 'canceled') ?? theirs[0];
  };

  const renew = (subscription: StripeSubscription) =>
    updating(subscription, () => {
      const current = item(subscription);
      current.current_period_start = current.current_period_end;
      current.current_period_end = addInterval(
        current.current_period_start,
        current.price.recurring!.interval,
      );
      subscription.status = 'active';
      const invoice = createInvoice(subscription, {
        paid: true,
        reason: 'subscription_cycle',
        trial: false,
      });
      emit('invoice.paid', invoice);
    });

  const createCustomer = (params: Params): StripeCustomer => {
    allowOnly(params, ['description', 'email', 'expand', 'metadata', 'name']);
    const customer: StripeCustomer = {
      id: newId('cus', 14),
      object: 'customer',
      created: now(),
      description: str(params, 'description') ?? null,
      email: str(params, 'email') ?? null,
      livemode: false,
      metadata: applyMetadata({}, params),
      name: str(params, 'name') ?? null,
    };
    customers.set(customer.id, customer);
    return customer;
  };

  const live = (id: string): StripeSubscription => {
    const subscription = subscriptions.get(id);
    if (!subscription) throw new Error(`No such subscription: '${id}'`);
    if (subscription.status === 'canceled') throw new Error(`Subscription ${id} is canceled`);
    return subscription;
  };

  /** Ends a subscription now, as DELETE /v1/subscriptions/:id does. */
  const cancelNow = (subscription: StripeSubscription) => {
    Object.assign(subscription, {
      status: 'canceled',
      cancel_at_period_end: false,
      canceled_at: now(),
      ended_at: now(),
    });
    emit('customer.subscription.deleted', subscription);
  };

  return {
    byId,
    price: (id: string) => find(prices, 'price', id),
    customer: (id: string): StripeCustomer | StripeDeletedCustomer =>
      deletedCustomers.get(id) ?? find(customers, 'customer', id),
    subscription: (id: string) => find(subscriptions, 'subscription', id),
    checkout: (id: string) => find(checkouts, 'checkout.session', id),
    portal: (id: string) => find(portals, 'billing_portal.session', id),
    subscriptionOf,
    subscriptionsOf: (customer: string) =>
      [...subscriptions.values()].filter((sub) => sub.customer === customer).map(copy),

    createCustomer,

    /** Stripe's DELETE: the customer's live subscriptions are cancelled at once, then it is gone. */
    deleteCustomer(id: string, params: Params): StripeDeletedCustomer {
      allowOnly(params, []);
      const customer = find(customers, 'customer', id);
      for (const subscription of subscriptions.values()) {
        if (subscription.customer === id && subscription.status !== 'canceled') {
          cancelNow(subscription);
        }
      }
      customers.delete(id);
      const deleted: StripeDeletedCustomer = { id, object: 'customer', deleted: true };
      deletedCustomers.set(id, deleted);
      emit('customer.deleted', customer);
      return deleted;
    },

    /**
     * Stripe no longer has the object at all, as after the Dashboard's "Delete all test data":
     * reading it answers 404 resource_missing, naming it in a parameter 400. No event is sent.
     */
    forget(id: string) {
      const maps: Map<string, unknown>[] = [
        customers,
        deletedCustomers,
        subscriptions,
        invoices,
        checkouts,
        portals,
        prices,
      ];
      if (!maps.some((map) => map.delete(id))) throw new Error(`No object ${id} to forget`);
    },

    createCheckout(params: Params): StripeCheckoutSession {
      allowOnly(params, [
        'allow_promotion_codes',
        'billing_address_collection',
        'cancel_url',
        'client_reference_id',
        'customer',
        'customer_email',
        'expand',
        'line_items',
        'locale',
        'metadata',
        'mode',
        'payment_method_types',
        'subscription_data',
        'success_url',
      ]);
      if (str(params, 'mode') !== 'subscription') {
        throw invalid('This local Stripe server supports mode=subscription only', 'mode');
      }
      const customer = str(params, 'customer');
      if (customer !== undefined) find(customers, 'customer', customer, 'customer');
      const lines = params.line_items;
      if (!Array.isArray(lines) || lines.length !== 1) {
        throw invalid('This local Stripe server takes exactly one line item', 'line_items');
      }
      const line = obj({ line: lines[0] }, 'line', 'line_items[0]')!;
      allowOnly(line, ['price', 'quantity'], 'line_items[0]');
      const priceId = str(line, 'price', 'line_items[0][price]');
      if (priceId === undefined) throw invalid('Missing required param: line_items[0][price].');
      const price = find(prices, 'price', priceId, 'line_items[0][price]');
      const quantity = int(line, 'quantity', 'line_items[0][quantity]') ?? 1;
      const subscriptionData = obj(params, 'subscription_data') ?? {};
      allowOnly(
        subscriptionData,
        ['description', 'metadata', 'trial_period_days'],
        'subscription_data',
      );
      const trialDays = int(
        subscriptionData,
        'trial_period_days',
        'subscription_data[trial_period_days]',
      );
      if (trialDays !== undefined && trialDays < 1) {
        throw invalid(
          'trial_period_days must be at least 1',
          'subscription_data[trial_period_days]',
        );
      }
      const created = now();
      const id = newId('cs_test', 58);
      const session: StripeCheckoutSession = {
        id,
        object: 'checkout.session',
        amount_total: (price.unit_amount ?? 0) * quantity,
        cancel_url: str(params, 'cancel_url') ?? null,
        client_reference_id: str(params, 'client_reference_id') ?? null,
        created,
        currency: price.currency,
        customer: customer ?? null,
        customer_email: str(params, 'customer_email') ?? null,
        expires_at: created + 24 * 3600,
        livemode: false,
        metadata: applyMetadata({}, params),
        mode: 'subscription',
        payment_status: 'unpaid',
        status: 'open',
        subscription: null,
        success_url: str(params, 'success_url') ?? null,
        url: `${publicUrl}/checkout/${id}`,
      };
      checkouts.set(id, {
        session,
        priceId,
        quantity,
        subscriptionMetadata: applyMetadata({}, subscriptionData),
        trialDays,
      });
      return session;
    },

    /** The "Pay" button: starts the subscription and completes the session. */
    payCheckout(id: string): StripeCheckoutSession {
      const record = find(checkouts, 'checkout.session', id);
      const { session } = record;
      if (session.status === 'open' && now() > session.expires_at) session.status = 'expired';
      if (session.status !== 'open') {
        throw invalid(`This Checkout Session is ${session.status} and can no longer be paid.`);
      }
      if (session.customer !== null) find(customers, 'customer', session.customer, 'customer');
      const customer =
        session.customer ??
        createCustomer(session.customer_email ? { email: session.customer_email } : {}).id;
      const { subscription, invoice, trial } = startSubscription(record, customer);
      Object.assign(session, {
        customer,
        status: 'complete',
        payment_status: trial ? 'no_payment_required' : 'paid',
        subscription: subscription.id,
      });
      emit('customer.subscription.created', subscription);
      // Stripe also sends invoice.paid for the $0 invoice of a trial; the billing flows ignore it.
      if (!trial) emit('invoice.paid', invoice);
      emit('checkout.session.completed', session);
      return session;
    },

    listSubscriptions(params: Params): List<StripeSubscription> {
      allowOnly(params, ['customer', 'expand', 'limit', 'starting_after', 'status']);
      const customer = str(params, 'customer');
      const status = oneOf(params, 'status', subscriptionStatuses);
      const limit = int(params, 'limit') ?? 10;
      if (limit < 1 || limit > 100) throw invalid('limit must be between 1 and 100', 'limit');
      let all = [...subscriptions.values()]
        .reverse()
        .filter((sub) => customer === undefined || sub.customer === customer)
        .filter((sub) =>
          status === 'all'
            ? true
            : status === undefined
              ? sub.status !== 'canceled'
              : status === 'ended'
                ? sub.status === 'canceled' || sub.status === 'incomplete_expired'
                : sub.status === status,
        );
      const after = str(params, 'starting_after');
      if (after !== undefined) {
        const index = all.findIndex((sub) => sub.id === after);
        if (index < 0) throw noSuch('subscription', after, 'starting_after');
        all = all.slice(index + 1);
      }
      return {
        object: 'list',
        data: all.slice(0, limit),
        has_more: all.length > limit,
        url: '/v1/subscriptions',
      };
    },

    updateSubscription(id: string, params: Params): StripeSubscription {
      const subscription = find(subscriptions, 'subscription', id);
      allowOnly(params, [
        'cancel_at_period_end',
        'cancellation_details',
        'expand',
        'items',
        'metadata',
        'payment_behavior',
        'proration_behavior',
      ]);
      const changes = Object.keys(params).filter(
        (key) => !['cancellation_details', 'expand', 'metadata'].includes(key),
      );
      if (subscription.status === 'canceled' && changes.length > 0) {
        throw invalid(
          'A canceled subscription can only update its cancellation_details and metadata.',
          changes[0],
        );
      }
      oneOf(params, 'proration_behavior', ['always_invoice', 'create_prorations', 'none']);
      const cancel = bool(params, 'cancel_at_period_end');
      const changeItems = itemChanges(subscription, params.items);
      const metadata = applyMetadata(subscription.metadata, params);
      updating(subscription, () => {
        changeItems();
        if (cancel !== undefined) scheduleCancel(subscription, cancel);
        subscription.metadata = metadata;
      });
      return subscription;
    },

    cancelSubscription(id: string, params: Params): StripeSubscription {
      const subscription = find(subscriptions, 'subscription', id);
      allowOnly(params, ['cancellation_details', 'expand', 'invoice_now', 'prorate']);
      if (subscription.status === 'canceled') {
        throw new StripeApiError(400, `This subscription is already canceled: '${id}'`);
      }
      cancelNow(subscription);
      return subscription;
    },

    createPortal(params: Params): StripePortalSession {
      allowOnly(params, ['configuration', 'customer', 'expand', 'locale', 'return_url']);
      const customer = str(params, 'customer');
      if (customer === undefined) throw invalid('Missing required param: customer.', 'customer');
      find(customers, 'customer', customer, 'customer');
      const id = newId('bps');
      const portal: StripePortalSession = {
        id,
        object: 'billing_portal.session',
        created: now(),
        customer,
        livemode: false,
        return_url: str(params, 'return_url') ?? null,
        url: `${publicUrl}/portal/${id}`,
      };
      portals.set(id, portal);
      return portal;
    },

    /** The portal's "Cancel plan" (true) and "Renew plan" (false) buttons. */
    cancelAtPeriodEnd(subscriptionId: string, cancel: boolean) {
      const subscription = live(subscriptionId);
      updating(subscription, () => scheduleCancel(subscription, cancel));
    },

    endPeriod(subscriptionId: string): StripeSubscription {
      const subscription = live(subscriptionId);
      if (subscription.cancel_at_period_end) {
        Object.assign(subscription, {
          status: 'canceled',
          ended_at: item(subscription).current_period_end,
        });
        emit('customer.subscription.deleted', subscription);
      } else {
        renew(subscription);
      }
      return copy(subscription);
    },

    failPayment(subscriptionId: string): StripeSubscription {
      const subscription = live(subscriptionId);
      updating(subscription, () => {
        const invoice = createInvoice(subscription, {
          paid: false,
          reason: 'subscription_cycle',
          trial: false,
        });
        emit('invoice.payment_failed', invoice);
        subscription.status = 'past_due';
      });
      return copy(subscription);
    },
  };
};

export type StripeState = ReturnType<typeof createStripeState>;
