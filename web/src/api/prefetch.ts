import type { FetchQueryOptions, Query, QueryClient } from '@tanstack/react-query';

// Data asked for ahead of the view that shows it (the season overview's, beside the dashboard's list) is
// not asked for again when that view mounts a moment later: it counts as fresh until the first view that
// used it has left. From then on a view mounting reads it again as usual (stale data refetches on mount).
const ahead = new WeakSet<Query>();

/** Asks for a query ahead of its view, unless it is cached or under way already. */
export function prefetchAhead<T, K extends readonly unknown[]>(
  qc: QueryClient,
  options: FetchQueryOptions<T, Error, T, K>,
): void {
  if (qc.getQueryState(options.queryKey)) return;
  void qc.prefetchQuery(options).then(() => {
    const query = qc.getQueryCache().find({ queryKey: options.queryKey, exact: true });
    // A view that mounted while the answer was on its way has used it already.
    if (query && query.getObserversCount() === 0) ahead.add(query);
  });
}

/**
 * Keeps data that came with another answer (a checklist's deadlines, with the checklist) as if asked for
 * ahead: the view that shows it does not ask for it again when it mounts a moment later.
 */
export function markFresh<T>(qc: QueryClient, queryKey: readonly unknown[], data: T): void {
  qc.setQueryData<T>(queryKey, data);
  const query = qc.getQueryCache().find({ queryKey, exact: true });
  if (query && query.getObserversCount() === 0) ahead.add(query);
}

/** The client's `refetchOnMount`: stale data is read again on mount, except data asked for ahead. */
export const refetchOnMount = (query: Query): boolean => !ahead.has(query);

/** Drops the mark when a view that used the data leaves. */
export function trackAhead(qc: QueryClient): () => void {
  return qc.getQueryCache().subscribe((e) => {
    if (e.type === 'observerRemoved') ahead.delete(e.query);
  });
}
