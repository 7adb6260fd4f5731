import type { MajorProfile } from '@ct/contracts';
import { MSG } from '@ct/contracts/messages';
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, ApiError, errorMessage } from '../../api/client';
import { usePoll } from '../../hooks/usePoll';

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

let lookups = 0;

/**
 * Looks up a major's stats at a college. A profile not gathered yet answers 202: the hook keeps asking
 * (the panel shows the loading overlay with the stage) until it is found, not found, or failed. A new
 * lookup, or a change of college, cancels the one in progress.
 */
export function useMajorProfile(collegeName: string | null) {
  const [target, setTarget] = useState<{ id: number; collegeName: string; major: string } | null>(null);
  useEffect(() => setTarget(null), [collegeName]);
  const active = target?.collegeName === collegeName ? target : null;

  // The lookup's first call asks for the profile (a write that may queue its gathering); the polls after
  // it only read.
  const asked = useRef(0);
  const poll = usePoll({
    queryKey: ['major-profile', active?.id, active?.collegeName, active?.major],
    enabled: !!active,
    queryFn: async (signal) => {
      const input = { collegeName: active?.collegeName ?? '', major: active?.major ?? '' };
      if (active && asked.current !== active.id) {
        const res = await api.requestMajorProfile(input, { signal });
        asked.current = active.id;
        return res;
      }
      return api.getMajorProfile(input, { signal });
    },
    done: (res) => res.status !== 202 && 'major' in res.data,
    intervalMs: MAJOR_POLL_MS,
    giveUpAfterMs: GIVE_UP_AFTER_MS,
    // Only network trouble while waiting is retried; an answer from the server is final.
    retry: (failures, err) => !(err instanceof ApiError && err.status !== 0) && failures < MAX_POLL_ERRORS,
  });

  const lookUp = useCallback(
    (major: string) => {
      if (collegeName && major.trim()) setTarget({ id: ++lookups, collegeName, major: major.trim() });
    },
    [collegeName],
  );

  let phase: MajorPhase;
  const res = poll.data;
  if (!active) phase = { kind: 'idle' };
  else if (poll.isError) {
    const notFound = poll.error instanceof ApiError && poll.error.status === 404;
    phase = {
      kind: 'error',
      message: notFound ? MSG.majorStatsNotFound : MSG.errorOccurred(errorMessage(poll.error)),
    };
  } else if (res && res.status !== 202 && 'major' in res.data) phase = { kind: 'found', profile: res.data };
  else phase = { kind: 'loading', stage: res && 'stage' in res.data ? res.data.stage : 'queued' };

  return { phase, lookUp };
}
