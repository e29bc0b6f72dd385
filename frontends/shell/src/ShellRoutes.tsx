import { Route, Routes, useLocation } from '@noted/router';
import { SubscriptionArea } from './billing/SubscriptionArea';
import { DefaultLayout, ErrorLayout, PlainLayout } from './layout/Layouts';
import { ComingPage } from './pages/ComingPage';
import { NotFound } from './pages/ErrorPage';
import { NotesArea } from './pages/NotesArea';
import { SharedPage } from './pages/SharedPage';
import { comingRoutes, isNotesPage, sharedNotePath, subscriptionPaths } from './routes';

/** Everything else: the notes remote's pages, or the 404 page in the error layout. */
function Fallthrough() {
  const { pathname } = useLocation();
  if (isNotesPage(pathname)) return <NotesArea />;
  return (
    <ErrorLayout>
      <NotFound path={pathname} />
    </ErrorLayout>
  );
}

/** The route table of spec section 2, each route in its layout. */
export function ShellRoutes() {
  return (
    <Routes>
      <Route path={sharedNotePath} element={<SharedPage />} />
      <Route path={subscriptionPaths.success} element={<SubscriptionArea page="success" />} />
      <Route path={subscriptionPaths.cancel} element={<SubscriptionArea page="cancel" />} />
      {comingRoutes.map(({ path, page, sidebar }) => {
        const Layout = sidebar ? DefaultLayout : PlainLayout;
        return (
          <Route
            key={path}
            path={path}
            element={
              <Layout>
                <ComingPage page={page} />
              </Layout>
            }
          />
        );
      })}
      <Route path="*" element={<Fallthrough />} />
    </Routes>
  );
}
