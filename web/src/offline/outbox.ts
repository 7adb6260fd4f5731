import { onlineManager, useQueryClient } from '@tanstack/react-query';
import { get, set } from 'idb-keyval';
import { useCallback, useEffect, useSyncExternalStore } from 'react';
import { api, ApiError } from '../api/client';
import { newId } from '../lib/uuid';
import { deviceStore, outboxKey } from './device';

/** The writes a student can make offline. */
export type QueueableRoute = 'updateChecklist' | 'addNote' | 'updateNote' | 'updateApplication';

/** A write made offline, kept on the device until the server has it. */
export interface QueuedWrite {
  /** Sent as Idempotency-Key: the server applies it once, however often it is sent. */
  id: string;
  route: QueueableRoute;
  body: Record<string, unknown>;
  /** What the student did, in their words ("Ticked “Send transcripts”"), for a conflict notice. */
  label: string;
  queuedAt: string;
}

export interface OutboxState {
  writes: QueuedWrite[];
  /** Writes the server refused after the student made them offline: what happened, to be told. */
  notices: string[];
}

let state: OutboxState = { writes: [], notices: [] };
const listeners = new Set<() => void>();
const publish = (next: OutboxState) => {
  state = next;
  for (const l of listeners) l();
};
/** The outbox for the React tree (useSyncExternalStore). */
export const outboxState = () => state;
export function onOutbox(l: () => void): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

const readQueue = async (uid: string) => (await get<QueuedWrite[]>(outboxKey(uid), deviceStore())) ?? [];
const writeQueue = (uid: string, q: QueuedWrite[]) => set(outboxKey(uid), q, deviceStore());

// One change of the stored queue at a time: a write added while the queue is being sent is not lost.
let chain: Promise<unknown> = Promise.resolve();
function serial<T>(fn: () => Promise<T>): Promise<T> {
  const run = chain.then(fn, fn);
  chain = run.catch(() => {});
  return run;
}

const sendWrite = (w: QueuedWrite) =>
  // The body was checked by the caller's types when it was queued.
  (api[w.route] as (body: unknown, opts: { idempotencyKey: string }) => Promise<unknown>)(w.body, {
    idempotencyKey: w.id,
  });

/**
 * True when the write stays queued: it never reached the server (no network), or reached it under no
 * session or another student's (401, 403: the write names its student, and the server refuses it under
 * anyone else's token). A write is sent only for the student who made it (issue 50.8).
 */
const unreachable = (err: unknown) =>
  err instanceof ApiError &&
  (err.status === 0 || err.status >= 500 || err.status === 401 || err.status === 403);

/**
 * Sends a write now when online; when offline, or when the network fails on the way, keeps it on the
 * device to send later ("queued"). A refusal from the server is thrown, as for any call.
 */
export async function submitWrite<T>(
  uid: string,
  route: QueueableRoute,
  body: Record<string, unknown>,
  label: string,
): Promise<{ queued: false; reply: T } | { queued: true; write: QueuedWrite }> {
  // The write names its student, so the server refuses it under anyone else's token (see unreachable).
  const write: QueuedWrite = {
    id: newId(),
    route,
    body: { ...body, userId: uid },
    label,
    queuedAt: new Date().toISOString(),
  };
  if (onlineManager.isOnline()) {
    try {
      return { queued: false, reply: (await sendWrite(write)) as T };
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 0)) throw err;
    }
  }
  await serial(async () => {
    const q = [...(await readQueue(uid)), write];
    await writeQueue(uid, q);
    publish({ ...state, writes: q });
  });
  return { queued: true, write };
}

/**
 * Sends the queued writes in the order they were made. A write the server applied (or had applied: the
 * same id) leaves the queue; one it refuses (the checklist changed meanwhile, the note is gone) leaves it
 * too, and the student is told; no network stops the sending until the next try.
 */
export function flushOutbox(uid: string): Promise<{ sent: number }> {
  return serial(async () => {
    let q = await readQueue(uid);
    publish({ ...state, writes: q });
    let sent = 0;
    const notices: string[] = [];
    while (q.length) {
      const w = q[0]!;
      try {
        await sendWrite(w);
        sent++;
      } catch (err) {
        if (unreachable(err)) break;
        const why = err instanceof Error ? err.message : String(err);
        notices.push(`${w.label} was not saved: ${why}`);
      }
      q = q.slice(1);
      await writeQueue(uid, q);
      publish({ ...state, writes: q });
    }
    if (notices.length) publish({ ...state, notices: [...state.notices, ...notices] });
    return { sent };
  });
}

export function dismissNotices(): void {
  publish({ ...state, notices: [] });
}

/**
 * The signed-in student's outbox: loaded when the session is known, sent at once (the tab may have been
 * closed with writes waiting) and again each time the device is back online; the student's data is read
 * again after.
 */
export function useOutbox(uid: string | null): OutboxState {
  const qc = useQueryClient();
  const flush = useCallback(() => {
    if (!uid || !onlineManager.isOnline()) return;
    // The reconnect's own refetches would bring back what the server held before these writes, over
    // what the student sees: they are cancelled, and everything is read again once the writes are in.
    if (state.writes.length) void qc.cancelQueries();
    void flushOutbox(uid).then(
      ({ sent }) => {
        if (sent > 0 || state.notices.length) void qc.invalidateQueries();
      },
      () => {},
    );
  }, [uid, qc]);
  useEffect(() => {
    if (!uid) {
      publish({ writes: [], notices: [] });
      return;
    }
    void readQueue(uid).then(
      (writes) => publish({ ...state, writes }),
      () => {},
    );
    flush();
    return onlineManager.subscribe((online) => {
      if (online) flush();
    });
  }, [uid, flush]);
  return useSyncExternalStore(onOutbox, outboxState, outboxState);
}
