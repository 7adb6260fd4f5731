import { lazy, Suspense, useEffect, useState, type ComponentType } from 'react';
import { BrowserRouter, Link, matchPath, Route, Routes, useLocation } from 'react-router';
import { TIMINGS } from './lib/timings';
import { useSession } from './auth/session';
import { PageError, PageErrorBoundary } from './components/ErrorPage';
import { LoadingOverlay } from './components/LoadingOverlay';
import { NavBar } from './components/NavBar';
import { RequireAuth } from './components/RequireAuth';
import { useArrivalFocus } from './hooks/useArrivalFocus';
import { installLeaveGuard } from './hooks/useLeaveGuard';

/** A page of the app: where it is, its chunk (loaded on first use), and whether it needs a student. */
interface Page {
  path: string;
  chunk: () => Promise<{ default: ComponentType }>;
  signedIn?: true;
}

/**
 * Every page, each its own chunk: the router draws them from this table, and preloadPage starts the
 * chunk of the page being opened from it too, so the two never disagree.
 */
const PAGES: readonly Page[] = [
  { path: '/', chunk: () => import('./pages/Home') },
  { path: '/login', chunk: () => import('./pages/Login') },
  { path: '/about', chunk: () => import('./pages/About') },
  { path: '/search', chunk: () => import('./pages/Search'), signedIn: true },
  { path: '/usercolleges', chunk: () => import('./pages/Dashboard'), signedIn: true },
  { path: '/essays', chunk: () => import('./pages/Essays'), signedIn: true },
  { path: '/essay-prompts', chunk: () => import('./pages/Essays'), signedIn: true },
  { path: '/profile', chunk: () => import('./pages/Profile'), signedIn: true },
  { path: '/students-like-you', chunk: () => import('./pages/StudentsLikeYou'), signedIn: true },
  { path: '/admin', chunk: () => import('./pages/Admin') },
  { path: '/account-deleted', chunk: () => import('./pages/AccountDeleted') },
  // A student's read-only share link: public, the link is the key (issue 33).
  { path: '/shared/:token', chunk: () => import('./pages/Shared') },
  // The weekly e-mail's stop link: public, the link is the key.
  { path: '/email-digest/stop/:token', chunk: () => import('./pages/EmailDigestStop') },
];
const NotFound = lazy(() => import('./pages/NotFound'));

/** Each page's element, made once: a signed-in page sends a visitor to the login page. */
const routes = PAGES.map(({ path, chunk, signedIn }) => {
  const Component = lazy(chunk);
  return {
    path,
    element: signedIn ? (
      <RequireAuth>
        <Component />
      </RequireAuth>
    ) : (
      <Component />
    ),
  };
});

/**
 * Starts loading the chunk of the page at `pathname` while the app starts (main.tsx), so that the first
 * render finds it in rather than asking for it then. A signed-in page's only when someone is signed in.
 * Resolves when it is in (or could not be loaded: the page's error boundary says so then).
 */
export function preloadPage(pathname: string, signedIn: boolean): Promise<void> {
  const page = PAGES.find((p) => matchPath(p.path, pathname));
  return page && (signedIn || !page.signedIn)
    ? page.chunk().then(
        () => {},
        () => {},
      )
    : Promise.resolve();
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
              {routes.map((r) => (
                <Route key={r.path} path={r.path} element={r.element} />
              ))}
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
