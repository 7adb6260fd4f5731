import type { IngestionStage } from '@ct/contracts';
import { MSG } from '@ct/contracts/messages';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, ApiError, errorMessage } from '../../api/client';
import { fetchCollegeSuggestions, fetchCollegeView, type CollegeView } from './api';
import { startIngestionWatch, useIngestionStatus } from './useIngestionStatus';

export type SearchPhase =
  | { kind: 'idle' }
  | { kind: 'searching'; name: string }
  | { kind: 'gathering'; name: string; stage: IngestionStage }
  | { kind: 'found'; view: CollegeView }
  /** Not cached under the typed name, but close to these official names: asked before gathering it. */
  | { kind: 'close'; name: string; names: string[] }
  | { kind: 'error'; message: string };

/** The add-college call failed: the server's reason when it gave one we can show, else "try again later". */
function addFailure(err: unknown): string {
  if (err instanceof ApiError && err.status >= 400 && err.status < 500)
    return MSG.failedToAddCollege(err.message);
  return MSG.addCollegeLater;
}

/** At most this many close official names are offered before a typed name is gathered as a new college. */
export const CLOSE_NAMES = 3;

/**
 * A found college whose own pages nobody asked to read yet: opening it asks (the add-college call, a
 * write; the search itself only reads), and the card then shows the gathering.
 */
async function askForFacts(
  view: CollegeView,
  signal: AbortSignal,
  client: QueryClient,
): Promise<CollegeView> {
  if (view.enrichment.state !== 'not-asked') return view;
  try {
    const asked = await api.addCollege({ name: view.college.name }, { signal });
    startIngestionWatch(client, view.college.name, asked.data);
    return (await fetchCollegeView(view.college.name, signal)) ?? view;
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    // Not asked now (a quota, the hour's share): the card keeps its line; the figures are there.
    return view;
  }
}

/** An ingestion request being waited for: one search's. */
interface Waiting {
  name: string;
  signal: AbortSignal;
  startedAt: number;
}

/**
 * The spec's search flow: search the cache; if the college is not there, ask for it to be added, poll the
 * ingestion request (its stage drives the loading overlay) until it is done or failed, then search again.
 * A typo must not become a new college: when the cached official names hold close ones ("Standford" →
 * Stanford University), those are offered first, and the typed name is gathered only when the student
 * says none of them is the one (`search(name, { asNew: true })`). A newer search, or leaving the page,
 * cancels the one in progress.
 */
export function useCollegeSearch(): {
  phase: SearchPhase;
  search(name: string, opts?: { asNew?: boolean }): void;
  clear(): void;
} {
  const [phase, setPhase] = useState<SearchPhase>({ kind: 'idle' });
  const [waiting, setWaiting] = useState<Waiting | null>(null);
  const current = useRef<AbortController | null>(null);
  const client = useQueryClient();
  useEffect(() => () => current.current?.abort(), []);

  const poll = useIngestionStatus(waiting?.name ?? null, waiting?.startedAt);

  /** Runs a step of a search and shows where it got to, unless the search was cancelled meanwhile. */
  const settle = useCallback(async (signal: AbortSignal, step: () => Promise<SearchPhase | null>) => {
    let next: SearchPhase | null;
    try {
      next = await step();
    } catch (err) {
      next = { kind: 'error', message: MSG.errorOccurred(errorMessage(err)) };
    }
    if (next && !signal.aborted) setPhase(next);
  }, []);

  const search = useCallback(
    (raw: string, opts?: { asNew?: boolean }) => {
      const name = raw.trim();
      if (!name) return;
      current.current?.abort();
      const { signal } = (current.current = new AbortController());
      setWaiting(null);
      setPhase({ kind: 'searching', name });
      void settle(signal, async () => {
        const view = await fetchCollegeView(name, signal);
        if (view) return { kind: 'found', view: await askForFacts(view, signal, client) };
        if (!opts?.asNew) {
          // Suggestions that fail to load must not stop the search: the name is gathered as typed.
          const close = (await fetchCollegeSuggestions(name, signal).catch(() => []))
            .filter((n) => n.toLowerCase() !== name.toLowerCase())
            .slice(0, CLOSE_NAMES);
          if (close.length) return { kind: 'close', name, names: close };
        }
        try {
          const request = (await api.addCollege({ name }, { signal })).data;
          if (signal.aborted) return null;
          startIngestionWatch(client, name, request);
          setWaiting({ name, signal, startedAt: Date.now() });
          return null;
        } catch (err) {
          return { kind: 'error', message: addFailure(err) };
        }
      });
    },
    [settle, client],
  );

  const request = poll.data;
  const failed = poll.isError;
  useEffect(() => {
    if (!waiting || waiting.signal.aborted) return;
    const { name, signal } = waiting;
    if (failed) setPhase({ kind: 'error', message: MSG.addCollegeLater });
    else if (request?.state === 'failed') {
      setPhase({
        kind: 'error',
        message: request.failureReason ? MSG.failedToAddCollege(request.failureReason) : MSG.addCollegeLater,
      });
    } else if (request?.state === 'done') {
      setPhase({ kind: 'gathering', name, stage: 'done' });
      void settle(signal, async () => {
        // The name as typed finds a college kept privately for this student too.
        const view =
          (await fetchCollegeView(request.collegeName ?? name, signal)) ??
          (await fetchCollegeView(name, signal));
        return view ? { kind: 'found', view } : { kind: 'error', message: MSG.addCollegeLater };
      });
    } else if (request) setPhase({ kind: 'gathering', name, stage: request.stage });
  }, [waiting, request, failed, settle]);

  /** Back to no search (the one in progress, if any, is cancelled). */
  const clear = useCallback(() => {
    current.current?.abort();
    setWaiting(null);
    setPhase({ kind: 'idle' });
  }, []);

  return { phase, search, clear };
}
