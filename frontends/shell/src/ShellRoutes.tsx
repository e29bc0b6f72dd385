import { Route, Routes, useLocation } from '@noted/router';
import { SubscriptionArea } from './billing/SubscriptionArea';
import { FeedbackArea, MarketingArea } from './marketing/MarketingArea';
import { NotesArea } from './pages/NotesArea';
import { SharedPage } from './pages/SharedPage';
import { feedbackPath, isNotesPage, sharedNotePath, subscriptionPaths } from '@noted/api';

/**
 * Everything else: the notes remote's pages, or the site's (landing, guide, blog, a content
 * page such as /about, and "Page not found" for a path that is none of these).
 */
function Fallthrough() {
  const { pathname } = useLocation();
  return isNotesPage(pathname) ? <NotesArea /> : <MarketingArea />;
}

/** The route table of spec section 2, each route in its layout. */
export function ShellRoutes() {
  return (
    <Routes>
      <Route path={sharedNotePath} element={<SharedPage />} />
      <Route path={subscriptionPaths.success} element={<SubscriptionArea page="success" />} />
      <Route path={subscriptionPaths.cancel} element={<SubscriptionArea page="cancel" />} />
      <Route path={feedbackPath} element={<FeedbackArea />} />
      <Route path="*" element={<Fallthrough />} />
    </Routes>
  );
}
