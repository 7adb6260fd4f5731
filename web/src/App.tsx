import { lazy, Suspense, useEffect, useState } from 'react';
import { BrowserRouter, Link, Route, Routes, useLocation } from 'react-router-dom';
import { TIMINGS } from './lib/timings';
import { useSession } from './auth/session';
import { PageError, PageErrorBoundary } from './components/ErrorPage';
import { LoadingOverlay } from './components/LoadingOverlay';
import { NavBar } from './components/NavBar';
import { RequireAuth } from './components/RequireAuth';
import { useArrivalFocus } from './hooks/useArrivalFocus';
import { installLeaveGuard } from './hooks/useLeaveGuard';

// Each page is its own chunk, loaded when first visited.
/** Each page's chunk, loaded on first use (and ahead of the first render by preloadPage). */
const chunks = {
  home: () => import('./pages/Home'),
  login: () => import('./pages/Login'),
  about: () => import('./pages/About'),
  search: () => import('./pages/Search'),
  dashboard: () => import('./pages/Dashboard'),
  essays: () => import('./pages/Essays'),
  profile: () => import('./pages/Profile'),
  admin: () => import('./pages/Admin'),
  notFound: () => import('./pages/NotFound'),
  accountDeleted: () => import('./pages/AccountDeleted'),
  shared: () => import('./pages/Shared'),
};
const Home = lazy(chunks.home);
const Login = lazy(chunks.login);
const About = lazy(chunks.about);
const Search = lazy(chunks.search);
const Dashboard = lazy(chunks.dashboard);
const Essays = lazy(chunks.essays);
const Profile = lazy(chunks.profile);
const Admin = lazy(chunks.admin);
const NotFound = lazy(chunks.notFound);
const AccountDeleted = lazy(chunks.accountDeleted);
const Shared = lazy(chunks.shared);

/** The pages only a signed-in student sees (the others go to the login page). */
const SIGNED_IN: Record<string, () => Promise<unknown>> = {
  '/search': chunks.search,
  '/usercolleges': chunks.dashboard,
  '/essays': chunks.essays,
  '/essay-prompts': chunks.essays,
  '/profile': chunks.profile,
};
const PUBLIC: Record<string, () => Promise<unknown>> = {
  '/': chunks.home,
  '/login': chunks.login,
  '/about': chunks.about,
  '/admin': chunks.admin,
  '/account-deleted': chunks.accountDeleted,
};

/**
 * Starts loading the chunk of the page at `pathname` while the app starts (main.tsx), so that the first
 * render finds it in rather than asking for it then. A signed-in page's only when someone is signed in.
 */
export function preloadPage(pathname: string, signedIn: boolean): void {
  const chunk =
    PUBLIC[pathname] ??
    (signedIn ? SIGNED_IN[pathname] : undefined) ??
    (pathname.startsWith('/shared/') ? chunks.shared : undefined);
  void chunk?.().catch(() => {});
}

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

/** Anything the shell itself throws (the header included): the product's page, never a blank screen. */
function ShellError({ error }: { error: unknown }) {
  return (
    <main id="main" tabIndex={-1}>
      <PageError error={error} />
    </main>
  );
}

// The declarative router: the data router's useBlocker alone would cost every page some 18 KB gzip of
// React Router, so unsaved work is held by useLeaveGuard instead, which hears Back and Forward first.
installLeaveGuard();

export function App() {
  return (
    <BrowserRouter>
      <PageErrorBoundary fallback={(error) => <ShellError error={error} />}>
        <Shell />
      </PageErrorBoundary>
    </BrowserRouter>
  );
}
