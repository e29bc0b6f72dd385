import type { ApiClient } from '@noted/api';
import type { BillingView, ShellServices } from '@noted/ui';
import type { ComponentModule } from './loader';

/** Props of `notes/NotesApp`, the module the notes remote exposes as './NotesApp'. */
export interface NotesAppProps {
  api: ApiClient;
  shell: ShellServices;
}

export type NotesAppModule = ComponentModule<NotesAppProps>;

/** Props of `notes/SharedNote`: the public page of a shared note, for anyone with the link. */
export interface SharedNoteProps {
  api: Pick<ApiClient, 'public'>;
  publicId: string;
  shell: ShellServices;
}

export type SharedNoteModule = ComponentModule<SharedNoteProps>;

/** Props of `notes/DataPanel`: the settings' "Your data" (export everything, import, Notion). */
export interface DataPanelProps {
  api: ApiClient;
  shell: ShellServices;
}

export type DataPanelModule = ComponentModule<DataPanelProps>;

/** Props of `billing/BillingDialog`: the plans to choose from, or the user's plan to manage. */
export interface BillingDialogProps {
  api: ApiClient;
  shell: ShellServices;
  view: BillingView;
  onClose: () => void;
}

/** Props of `billing/PlanPanel`: the plan and this month's usage, in the settings. */
export interface PlanPanelProps {
  api: ApiClient;
  shell: ShellServices;
}

/** Props of `billing/SubscriptionPage`: where Stripe's checkout sends the browser back to. */
export interface SubscriptionPageProps {
  api: ApiClient;
  shell: ShellServices;
  page: 'success' | 'cancel';
}

/** The billing remote's modules, each fetched when first shown. */
export interface BillingModules {
  dialog: () => Promise<ComponentModule<BillingDialogProps>>;
  planPanel: () => Promise<ComponentModule<PlanPanelProps>>;
  subscriptionPage: () => Promise<ComponentModule<SubscriptionPageProps>>;
}

/** Props of `marketing/MarketingApp`: the site's pages inside the app (landing, guide, blog, content). */
export interface MarketingAppProps {
  api: ApiClient;
  shell: ShellServices;
}

/** Props of `marketing/FeedbackPage`: the feedback form, in the layout with the sidebar. */
export interface FeedbackPageProps {
  api: ApiClient;
  shell: ShellServices;
}

/** The marketing remote's modules, each fetched when first shown. */
export interface MarketingModules {
  site: () => Promise<ComponentModule<MarketingAppProps>>;
  feedback: () => Promise<ComponentModule<FeedbackPageProps>>;
}
