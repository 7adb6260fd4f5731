import { lazy, Suspense, useEffect, useState } from 'react';
import { createBrowserRouter, Route, RouterProvider, Routes } from 'react-router-dom';
import { LIMITS } from '@ct/contracts/messages';
import { useSession } from './auth/session';
import { LoadingOverlay } from './components/LoadingOverlay';
import { NavBar } from './components/NavBar';
import { RequireAuth } from './components/RequireAuth';

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

function Shell() {
  const { isAdmin } = useSession();
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    const t = setTimeout(() => setLoaded(true), LIMITS.loadedFlagDelayMs);
    return () => clearTimeout(t);
  }, []);
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <NavBar loaded={loaded} isAdmin={isAdmin} />
      <main id="main" tabIndex={-1}>
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
            <Route path="*" element={<NotFound />} />
          </Routes>
        </Suspense>
      </main>
    </>
  );
}

// A data router (one catch-all route holding the app's own <Routes>): pages can hold a navigation back
// while it would lose unsaved work (useBlocker).
const router = createBrowserRouter([{ path: '*', element: <Shell /> }]);

export function App() {
  return <RouterProvider router={router} />;
}
