import { createContext, useContext, type AnchorHTMLAttributes, type ReactNode } from 'react';
import type { Navigation, SiteLanguage } from '../content/model';
import type { Translate } from '../i18n';

/** What the site's pages need of where they run: the page on its own, or inside the shell. */
export interface Site {
  lang: SiteLanguage;
  t: Translate;
  navigation: Navigation;
  /** Whether someone is signed in here (the shell knows; a page on its own reads a hint). */
  signedIn: boolean;
  /** Drafts are shown: a preview token the gateway accepted. */
  preview: 'off' | 'on' | 'refused';
  leavePreview: () => void;
  /** The path this page is at, as the browser shows it. */
  path: string;
  /** Renders an in-site link: the router's inside the shell, a plain anchor on its own. */
  Link: (
    props: { to: string; children: ReactNode } & AnchorHTMLAttributes<HTMLAnchorElement>,
  ) => ReactNode;
  /** Opens sign-in: the shell's dialog, or the app's home page where one signs in. */
  signIn: () => void;
  /** The language chooser's way to switch: a reload on its own, the shell's locale inside it. */
  switchLanguage: (lang: SiteLanguage) => void;
  /** Reads the plans (public billing route). */
  fetchPlans: () => Promise<unknown>;
  /** Signed in: opens the billing remote's plans (only inside the shell). */
  choosePlan?: () => void;
}

export const SiteContext = createContext<Site | undefined>(undefined);

export const useSite = (): Site => {
  const site = useContext(SiteContext);
  if (!site) throw new Error('useSite needs a SiteContext provider');
  return site;
};

/** A plain anchor for a page rendered on its own (a full page load between prerendered pages). */
export function AnchorLink({
  to,
  children,
  ...rest
}: { to: string; children: ReactNode } & AnchorHTMLAttributes<HTMLAnchorElement>) {
  return (
    <a href={to} {...rest}>
      {children}
    </a>
  );
}
