import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { loginFor } from '../auth/next';
import { useSession } from '../auth/session';
import { LoadingOverlay } from './LoadingOverlay';

/**
 * Signed-in only. A visitor who is not signed in goes to the login page, which brings them back here
 * afterwards (a deep link such as /profile survives); a student who has just signed out here goes to `/`.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { user, loading, ended } = useSession();
  const location = useLocation();
  if (loading) return <LoadingOverlay message="Loading..." />;
  if (!user) {
    if (ended === 'signed-out') return <Navigate to="/" replace />;
    return <Navigate to={loginFor(`${location.pathname}${location.search}${location.hash}`)} replace />;
  }
  return <>{children}</>;
}
