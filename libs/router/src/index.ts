/**
 * The routing every Noted frontend uses, re-exported from react-router. Module Federation
 * cannot tree-shake a shared package (a remote may use any of its exports), so sharing
 * react-router itself would send all of it, server rendering included, to every browser; this
 * module is shared instead, and the build keeps only what it names. A frontend that needs
 * more of react-router adds it here.
 */
export {
  BrowserRouter,
  Link,
  MemoryRouter,
  NavLink,
  Route,
  Routes,
  matchPath,
  useHref,
  useLinkClickHandler,
  useLocation,
  useNavigate,
  useNavigationType,
  useParams,
  useSearchParams,
  type NavigateFunction,
} from 'react-router';
