import type { ReactNode } from 'react';
import { Navigate } from 'react-router-dom';
import { useSession } from '../auth/session';
import { LoadingOverlay } from './LoadingOverlay';

/** Signed-in only: anonymous visitors are sent to `/`. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { user, loading } = useSession();
  if (loading) return <LoadingOverlay message="Loading..." />;
  if (!user) return <Navigate to="/" replace />;
  return <>{children}</>;
}
