import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { MSG } from '@ct/contracts/messages';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { ApiError } from '../../api/client';

/** Every admin query lives under this key, so Refresh Data can refetch them all at once. */
export const ADMIN_KEY = 'admin';

/**
 * A query for the admin page. No automatic retry (Refresh Data is the retry); the previous page stays on
 * screen while the next loads; a 401/403 (role revoked, signed out elsewhere) sends the visitor to `/`.
 */
export function useAdminQuery<T>(key: readonly unknown[], fn: (signal: AbortSignal) => Promise<T>) {
  const navigate = useNavigate();
  const q = useQuery({
    queryKey: [ADMIN_KEY, ...key],
    queryFn: ({ signal }) => fn(signal),
    placeholderData: keepPreviousData,
    retry: false,
  });
  const err = q.error;
  useEffect(() => {
    if (err instanceof ApiError && (err.status === 401 || err.status === 403))
      navigate('/', { replace: true });
  }, [err, navigate]);
  return q;
}

/**
 * The spec's error text: the server's own message when it sent one, otherwise (network failure, a reply
 * that is not ours) "Error fetching admin data".
 */
export function adminErrorText(err: unknown): string {
  const fromServer =
    err instanceof ApiError && err.status > 0 && err.code !== 'HTTP_ERROR' && err.message !== '';
  return fromServer ? err.message : MSG.errorFetchingAdminData;
}
