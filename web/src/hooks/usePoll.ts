import { hashKey, useQuery, type QueryKey } from '@tanstack/react-query';
import { useRef } from 'react';

/** Said when a poll has waited longer than its `giveUpAfterMs`. */
const POLL_TIMEOUT = 'This is taking longer than expected. Please try again later.';
class PollTimeout extends Error {}

export interface PollOptions<T> {
  queryKey: QueryKey;
  queryFn: (signal: AbortSignal) => Promise<T>;
  /** Asks again this often until `done` says the answer is final, or a call fails for good. */
  intervalMs: number;
  done: (data: T) => boolean;
  enabled?: boolean;
  /** The answer already known: the first ask then waits one interval. */
  initialData?: T;
  /** Whether a failed ask is tried again (after one interval) rather than ending the poll. */
  retry?: (failuresSoFar: number, err: unknown) => boolean;
  /** After this long asking ends with an error saying POLL_TIMEOUT. */
  giveUpAfterMs?: number;
  /**
   * When the wait began (ms since the epoch), for `giveUpAfterMs`; by default the first ask under this
   * key. A watcher that reuses a key for a new wait (a college searched for again) says when it began.
   */
  startedAt?: number;
  /** 'always': ask as soon as a watcher mounts, even when the last answer is recent. */
  refetchOnMount?: boolean | 'always';
}

/**
 * One poll on React Query's `refetchInterval`: asks, then asks again every `intervalMs` (in a background
 * tab too) until the answer is final, a call fails for good, or the time is up. A new key starts a new poll.
 */
export function usePoll<T>({
  queryKey,
  queryFn,
  intervalMs,
  done,
  retry,
  giveUpAfterMs,
  startedAt,
  ...o
}: PollOptions<T>) {
  const since = useRef({ key: '', at: 0 });
  return useQuery<T>({
    queryKey,
    queryFn: ({ signal, queryKey: key }) => {
      const hash = hashKey(key);
      if (since.current.key !== hash) since.current = { key: hash, at: Date.now() };
      else if (giveUpAfterMs !== undefined && Date.now() - (startedAt ?? since.current.at) > giveUpAfterMs)
        throw new PollTimeout(POLL_TIMEOUT);
      return queryFn(signal);
    },
    ...o,
    ...(o.initialData !== undefined ? { initialDataUpdatedAt: Date.now() } : {}),
    refetchInterval: ({ state }) =>
      state.status === 'error' || (state.data !== undefined && done(state.data)) ? false : intervalMs,
    refetchIntervalInBackground: true,
    retry: (n, err) => !(err instanceof PollTimeout) && (retry?.(n, err) ?? false),
    retryDelay: intervalMs,
    networkMode: 'always',
    staleTime: intervalMs,
    refetchOnReconnect: false,
  });
}
