import type { MajorProfile } from '@ct/contracts';
import { MSG } from '@ct/contracts/messages';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, errorMessage } from '../../api/client';
import { fetchMajorProfile } from './api';

/** How often a profile being gathered is asked for again. */
export const MAJOR_POLL_MS = 1500;
/** After this long the student is told to try later rather than wait forever. */
const GIVE_UP_AFTER_MS = 10 * 60_000;
/** Consecutive failed polls tolerated (a network blip must not end the wait). */
const MAX_POLL_ERRORS = 5;

export type MajorPhase =
  | { kind: 'idle' }
  | { kind: 'loading'; stage: string }
  | { kind: 'found'; profile: MajorProfile }
  | { kind: 'error'; message: string };

/** What each stage of gathering means to a student, under "Taking our time :D". */
export const MAJOR_STAGE_TEXT: Record<string, string> = {
  queued: 'Waiting in line to look up this major...',
  running: 'Looking up this major...',
  'ai-research': "Reading the college's pages about this major...",
  'government-data': 'Reading field-of-study data (College Scorecard)...',
  saving: 'Saving what we found...',
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

/**
 * Looks up a major's stats at a college. A profile not gathered yet answers 202: the hook keeps asking
 * (the panel shows the loading overlay with the stage) until it is found, not found, or failed. A new
 * lookup, or a change of college, cancels the one in progress.
 */
export function useMajorProfile(collegeName: string | null) {
  const [phase, setPhase] = useState<MajorPhase>({ kind: 'idle' });
  const current = useRef<AbortController | null>(null);

  useEffect(() => {
    current.current?.abort();
    setPhase({ kind: 'idle' });
  }, [collegeName]);
  useEffect(() => () => current.current?.abort(), []);

  const lookUp = useCallback(
    async (major: string) => {
      if (!collegeName || !major.trim()) return;
      current.current?.abort();
      const ctrl = new AbortController();
      current.current = ctrl;
      setPhase({ kind: 'loading', stage: 'queued' });
      const started = Date.now();
      let pollErrors = 0;
      try {
        for (;;) {
          let res;
          try {
            res = await fetchMajorProfile(collegeName, major.trim(), ctrl.signal);
            pollErrors = 0;
          } catch (err) {
            if (ctrl.signal.aborted) throw new Cancelled();
            // Only network trouble while waiting is retried; an answer from the server is final.
            if (err instanceof ApiError && err.status !== 0) throw err;
            if (++pollErrors > MAX_POLL_ERRORS) throw err;
            await sleep(MAJOR_POLL_MS, ctrl.signal);
            continue;
          }
          if (res.status !== 202 && 'data' in res && 'major' in res.data) {
            setPhase({ kind: 'found', profile: res.data });
            return;
          }
          const stage = 'data' in res && 'stage' in res.data ? res.data.stage : 'queued';
          setPhase({ kind: 'loading', stage });
          if (Date.now() - started > GIVE_UP_AFTER_MS) {
            throw new Error('This is taking longer than expected. Please try again later.');
          }
          await sleep(MAJOR_POLL_MS, ctrl.signal);
        }
      } catch (err) {
        if (err instanceof Cancelled || ctrl.signal.aborted) return;
        const message =
          err instanceof ApiError && err.status === 404
            ? MSG.majorStatsNotFound
            : MSG.errorOccurred(errorMessage(err));
        setPhase({ kind: 'error', message });
      }
    },
    [collegeName],
  );

  return { phase, lookUp };
}
