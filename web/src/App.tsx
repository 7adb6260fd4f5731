import { lazy, Suspense, useEffect, useState } from 'react';
import {
  createBrowserRouter,
  Link,
  Route,
  RouterProvider,
  Routes,
  useLocation,
  useRouteError,
} from 'react-router-dom';
import { TIMINGS } from './lib/timings';
import { useSession } from './auth/session';
import { PageError, PageErrorBoundary } from './components/ErrorPage';
import { LoadingOverlay } from './components/LoadingOverlay';
import { NavBar } from './components/NavBar';
import { RequireAuth } from './components/RequireAuth';
import { useArrivalFocus } from './hooks/useArrivalFocus';

// Each page is its own chunk, loaded when first visited.
const Home = lazy(() => import('./pages/Home'));
const Login = lazy(() => import('./pages/Login'));
const About = lazy(() => import('./pages/About'));
const Search = lazy(() => import('./pages/Search'));
const Dashboard = lazy(() => import('./pages/Dashboard'));
const Essays = lazy(() => import('./pages/Essays'));
const Profile = lazy(() => import('./pages/Profile'));
const Admin = lazy(() => import('./pages/Admin'));
const NotFound = lazy(() => import('./pages/NotFound'));
const AccountDeleted = lazy(() => import('./pages/AccountDeleted'));
const Shared = lazy(() => import('./pages/Shared'));

const homeLink = (
  <Link className="button secondary" to="/">
    Go to the home page
  </Link>
);

function Shell() {
  const { isAdmin } = useSession();
  const { pathname } = useLocation();
  const [loaded, setLoaded] = useState(false);
  useArrivalFocus();
  useEffect(() => {
    const t = setTimeout(() => setLoaded(true), TIMINGS.loadedFlagDelayMs);
    return () => clearTimeout(t);
  }, []);
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <NavBar loaded={loaded} isAdmin={isAdmin} />
      <main id="main" tabIndex={-1}>
        {/* A page that fails (or whose chunk cannot be loaded) shows the product's own page, under the header;
            moving to another page starts afresh. */}
        <PageErrorBoundary key={pathname} home={homeLink}>
          <Suspense fallback={<LoadingOverlay message="Loading..." />}>
            <Routes>
              <Route path="/" element={<Home />} />
              <Route path="/login" element={<Login />} />
              <Route path="/about" element={<About />} />
              <Route
                path="/search"
                element={
                  <RequireAuth>
                    <Search />
                  </RequireAuth>
                }
              />
              <Route
                path="/usercolleges"
                element={
                  <RequireAuth>
                    <Dashboard />
                  </RequireAuth>
                }
              />
              <Route
                path="/essays"
                element={
                  <RequireAuth>
                    <Essays />
                  </RequireAuth>
                }
              />
              <Route
                path="/essay-prompts"
                element={
                  <RequireAuth>
                    <Essays />
                  </RequireAuth>
                }
              />
              <Route
                path="/profile"
                element={
                  <RequireAuth>
                    <Profile />
                  </RequireAuth>
                }
              />
              <Route path="/admin" element={<Admin />} />
              <Route path="/account-deleted" element={<AccountDeleted />} />
              {/* A student's read-only share link: public, the link is the key (issue 33). */}
              <Route path="/shared/:token" element={<Shared />} />
              <Route path="*" element={<NotFound />} />
            </Routes>
          </Suspense>
        </PageErrorBoundary>
      </main>
    </>
  );
}

/** Anything the shell itself throws (the header included): the product's page, never the router's own. */
function ShellError() {
  const error = useRouteError();
  return (
    <main id="main" tabIndex={-1}>
      <PageError error={error} />
    </main>
  );
}

// A data router (one catch-all route holding the app's own <Routes>): pages can hold a navigation back
// while it would lose unsaved work (useBlocker).
const router = createBrowserRouter([{ path: '*', element: <Shell />, errorElement: <ShellError /> }]);

export function App() {
  return <RouterProvider router={router} />;
}
