import type { IngestionRequest } from '@ct/contracts';
import { normaliseCollegeName } from '@ct/contracts/constants';
import type { QueryClient } from '@tanstack/react-query';
import { api, ApiError } from '../../api/client';
import { usePoll } from '../../hooks/usePoll';
import { TIMINGS } from '../../lib/timings';

/** After this long without a final answer the watch ends with an error (the student is told to try later). */
const GIVE_UP_AFTER_MS = 10 * 60_000;
/** Consecutive failed status calls tolerated (a brief network blip must not end the wait). */
const MAX_POLL_ERRORS = 5;

/** One row, one key: the status of a college's ingestion request, by the name the server keys it by. */
export const ingestionStatusKey = (name: string) => ['ingestion-status', normaliseCollegeName(name)] as const;

export const isFinished = (r: IngestionRequest): boolean => r.state === 'done' || r.state === 'failed';

/**
 * A watch starts afresh from the request the add-college call just answered with, not from what an
 * earlier watch of the same college left (a final state would end the new watch before it began).
 */
export function startIngestionWatch(client: QueryClient, name: string, request: IngestionRequest): void {
  client.setQueryData(ingestionStatusKey(name), request);
}

/**
 * The ingestion request of a college being gathered, asked for every `TIMINGS.ingestionPollMs` until it
 * is done or failed (or the server no longer has it). Whoever watches a college (the search's overlay, a
 * found card's status line) watches it here, under one query key per request row: one poll, one answer.
 * `startedAt`: when this watch began, so that a college searched for again gets its own ten minutes;
 * `askOnMount`: ask at once when the watcher appears, whatever an earlier watch left in the cache.
 */
export function useIngestionStatus(
  name: string | null,
  startedAt?: number,
  { askOnMount = false }: { askOnMount?: boolean } = {},
) {
  return usePoll<IngestionRequest>({
    queryKey: ingestionStatusKey(name ?? ''),
    enabled: !!name,
    queryFn: async (signal) => (await api.getIngestionStatus({ name: name ?? '' }, { signal })).data,
    done: isFinished,
    intervalMs: TIMINGS.ingestionPollMs,
    giveUpAfterMs: GIVE_UP_AFTER_MS,
    ...(startedAt !== undefined ? { startedAt } : {}),
    ...(askOnMount ? { refetchOnMount: 'always' as const } : {}),
    // A brief network blip must not end the wait; a request that is gone does.
    retry: (failures, err) =>
      !(err instanceof ApiError && err.status === 404) && failures < MAX_POLL_ERRORS - 1,
  });
}
