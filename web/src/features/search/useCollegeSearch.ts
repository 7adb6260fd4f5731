import type { IngestionRequest, IngestionStage } from '@ct/contracts';
import { MSG } from '@ct/contracts/messages';
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, ApiError, errorMessage } from '../../api/client';
import { fetchCollegeView, type CollegeView } from './api';

/** How often the ingestion status is asked for while the overlay shows. */
export const POLL_INTERVAL_MS = 1000;
/** After this long without an answer the student is told to try later rather than wait forever. */
const GIVE_UP_AFTER_MS = 10 * 60_000;
/** Consecutive failed status calls tolerated (a brief network blip must not end the wait). */
const MAX_POLL_ERRORS = 5;

export type SearchPhase =
  | { kind: 'idle' }
  | { kind: 'searching'; name: string }
  | { kind: 'gathering'; name: string; stage: IngestionStage }
  | { kind: 'found'; view: CollegeView }
  | { kind: 'error'; message: string };

/** What each ingestion stage means to a student, shown under "Taking our time :D". */
export const STAGE_TEXT: Record<IngestionStage, string> = {
  queued: 'Waiting in line to gather this college...',
  'government-data': 'Step 1 of 3: reading government data (College Scorecard)...',
  'college-facts': 'Step 2 of 3: gathering deadlines, essay prompts, requirements and tips...',
  saving: 'Step 3 of 3: saving what we found...',
  done: 'Almost there...',
  failed: 'Gathering failed.',
};

class Cancelled extends Error {}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new Cancelled());
    const t = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        reject(new Cancelled());
      },
      { once: true },
    );
  });
}

/** The add-college call failed: the server's reason when it gave one we can show, else "try again later". */
function addFailure(err: unknown): string {
  if (err instanceof ApiError && err.status >= 400 && err.status < 500)
    return MSG.failedToAddCollege(err.message);
  return MSG.addCollegeLater;
}

/**
 * The spec's search flow: search the cache; if the college is not there, ask for it to be added, poll the
 * ingestion request (its stage drives the loading overlay) until it is done or failed, then search again.
 * A newer search, or leaving the page, cancels the one in progress.
 */
export function useCollegeSearch(): { phase: SearchPhase; search(name: string): void; clear(): void } {
  const [phase, setPhase] = useState<SearchPhase>({ kind: 'idle' });
  const current = useRef<AbortController | null>(null);
  useEffect(() => () => current.current?.abort(), []);

  const search = useCallback((raw: string) => {
    const name = raw.trim();
    if (!name) return;
    current.current?.abort();
    const ctrl = new AbortController();
    current.current = ctrl;
    const { signal } = ctrl;
    const set = (p: SearchPhase) => {
      if (!signal.aborted) setPhase(p);
    };

    const run = async (): Promise<SearchPhase> => {
      set({ kind: 'searching', name });
      try {
        const view = await fetchCollegeView(name, signal);
        if (view) return { kind: 'found', view };
      } catch (err) {
        if (signal.aborted) throw new Cancelled();
        return { kind: 'error', message: MSG.errorOccurred(errorMessage(err)) };
      }

      let request: IngestionRequest;
      try {
        request = (await api.addCollege({ name }, { signal })).data;
      } catch (err) {
        if (signal.aborted) throw new Cancelled();
        return { kind: 'error', message: addFailure(err) };
      }

      const started = Date.now();
      let pollErrors = 0;
      while (request.state !== 'done' && request.state !== 'failed') {
        set({ kind: 'gathering', name, stage: request.stage });
        await sleep(POLL_INTERVAL_MS, signal);
        try {
          request = (await api.getIngestionStatus({ name }, { signal })).data;
          pollErrors = 0;
        } catch (err) {
          if (signal.aborted) throw new Cancelled();
          pollErrors += 1;
          const gone = err instanceof ApiError && err.status === 404;
          if (gone || pollErrors >= MAX_POLL_ERRORS) return { kind: 'error', message: MSG.addCollegeLater };
        }
        if (Date.now() - started > GIVE_UP_AFTER_MS) return { kind: 'error', message: MSG.addCollegeLater };
      }
      if (request.state === 'failed') {
        return {
          kind: 'error',
          message: request.failureReason
            ? MSG.failedToAddCollege(request.failureReason)
            : MSG.addCollegeLater,
        };
      }

      set({ kind: 'gathering', name, stage: 'done' });
      try {
        // The name as typed finds a college kept privately for this student too.
        const view =
          (await fetchCollegeView(request.collegeName ?? name, signal)) ??
          (await fetchCollegeView(name, signal));
        return view ? { kind: 'found', view } : { kind: 'error', message: MSG.addCollegeLater };
      } catch (err) {
        if (signal.aborted) throw new Cancelled();
        return { kind: 'error', message: MSG.errorOccurred(errorMessage(err)) };
      }
    };

    run().then(set, (err: unknown) => {
      if (err instanceof Cancelled || signal.aborted) return;
      set({ kind: 'error', message: MSG.errorOccurred(errorMessage(err)) });
    });
  }, []);

  /** Back to no search (the one in progress, if any, is cancelled). */
  const clear = useCallback(() => {
    current.current?.abort();
    setPhase({ kind: 'idle' });
  }, []);

  return { phase, search, clear };
}
