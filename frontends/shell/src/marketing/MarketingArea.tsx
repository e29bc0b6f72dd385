import { useShell } from '@noted/ui';
import { useMemo } from 'react';
import { useShellApp } from '../context';
import { DefaultLayout } from '../layout/Layouts';
import type { FeedbackPageProps, MarketingAppProps } from '../remotes/contracts';
import { RemoteModule } from '../remotes/RemoteModule';

/**
 * The site's pages reached inside the app (landing, guide, blog, content pages and the 404 of a
 * path nobody owns): the marketing remote draws them whole, with the site's own header and
 * footer. Loaded directly, they are prerendered documents that never load the shell.
 */
export function MarketingArea() {
  const { api, loadMarketing, pwa } = useShellApp();
  const shell = useShell();
  const props = useMemo<MarketingAppProps>(() => ({ api, shell }), [api, shell]);
  return (
    <RemoteModule
      load={loadMarketing.site}
      props={props}
      name="marketing"
      onError={pwa.recoverFromLoadError}
      blocks={2}
    />
  );
}

/** `/feedback`: the marketing remote's form, in the layout with the sidebar (spec section 2). */
export function FeedbackArea() {
  const { api, loadMarketing, pwa } = useShellApp();
  const shell = useShell();
  const props = useMemo<FeedbackPageProps>(() => ({ api, shell }), [api, shell]);
  return (
    <DefaultLayout>
      <RemoteModule
        load={loadMarketing.feedback}
        props={props}
        name="marketing"
        onError={pwa.recoverFromLoadError}
        blocks={1}
      />
    </DefaultLayout>
  );
}
