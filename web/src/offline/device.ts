import { dehydrate, hydrate, type DehydratedState, type QueryClient } from '@tanstack/react-query';
import { createStore, del, delMany, get, keys, set, type UseStore } from 'idb-keyval';
import { userDataKeys } from '../api/keys';
import { DEVICE_MAX_AGE_MS } from './kept-for';
import { forgetLastScreens } from './last-screen';

/**
 * What this device keeps of a student, in IndexedDB: the last data the app saw (react-query's cache,
 * `queries:<uid>`) and the writes made offline that still wait to be sent (`outbox:<uid>`). Per uid, so
 * two students sharing a phone never see each other's; both are deleted at sign-out and account deletion.
 */
let store: UseStore | null = null;
export const deviceStore = (): UseStore => (store ??= createStore('college-ready-device', 'kv'));

export const queriesKey = (uid: string) => `queries:${uid}`;
export const outboxKey = (uid: string) => `outbox:${uid}`;

/** Bumped when the shape of cached data changes, so an old cache is dropped rather than misread. */
const CACHE_VERSION = 1;

/**
 * The first part of every query key that names a student (its second part is their uid). Made on first
 * use: keys.ts is in an import cycle with the session (session → outbox → device → keys → session).
 */
let studentQueries: Set<unknown> | null = null;
const studentQueryNames = () =>
  (studentQueries ??= new Set<unknown>(
    Object.values(userDataKeys).map(
      (key) => (key as (a: string, b: string) => readonly unknown[])('', '')[0],
    ),
  ));

/**
 * Whether a query may be saved under `uid`: a student's data only when it is theirs (issue 50.8: a tab
 * that still held another student's answers saved them under the next student's key); answers that name
 * no student (colleges, prompts) always.
 */
export function savedUnder(queryKey: readonly unknown[], uid: string): boolean {
  return !studentQueryNames().has(queryKey[0]) || queryKey[1] === uid;
}

/** Writes to IndexedDB at most this often (the cache changes on every answer). */
const SAVE_EVERY_MS = 500;

interface Persisted {
  version: number;
  savedAt: number;
  state: DehydratedState;
}

/** Puts the student's last saved data into the cache (nothing when there is none, or it is too old). */
async function restoreQueries(qc: QueryClient, uid: string): Promise<void> {
  const saved = await get<Persisted>(queriesKey(uid), deviceStore());
  if (!saved) return;
  if (saved.version !== CACHE_VERSION || Date.now() - saved.savedAt > DEVICE_MAX_AGE_MS) {
    await del(queriesKey(uid), deviceStore());
    return;
  }
  hydrate(qc, saved.state);
  // What the device kept paints at once, but is always checked with the server when a page uses it.
  void qc.invalidateQueries({ refetchType: 'none' });
}

let restoring: { uid: string; done: Promise<void>; settled: boolean } | null = null;

/**
 * Restores a student's saved data once per page load: main.tsx starts it as soon as the stored session is
 * known, before the first render, and DeviceStore waits for the same restore. Never rejects.
 */
export function restoreOnce(qc: QueryClient, uid: string): Promise<void> {
  if (restoring?.uid !== uid) {
    const entry = {
      uid,
      settled: false,
      done: restoreQueries(qc, uid)
        .catch(() => {})
        .then(() => {
          entry.settled = true;
          // For the repeat-visit figure of `npm run pagespeed` (scripts/repeat-visit.ts).
          performance.mark('device-restored');
        }),
    };
    restoring = entry;
  }
  return restoring.done;
}

/** Whether the student's saved data is already in the cache (restored before the first render). */
export const restoredAlready = (uid: string): boolean => restoring?.uid === uid && restoring.settled;

/**
 * Saves the successful answers in the cache to the device whenever the cache changes (gathered: at most
 * every half second, and when the page is hidden). Returns the unsubscribe.
 */
export function saveQueries(qc: QueryClient, uid: string): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let live = true;
  const save = () => {
    timer = null;
    if (!live || !keeping) return;
    const state = dehydrate(qc, {
      shouldDehydrateQuery: (q) => q.state.status === 'success' && savedUnder(q.queryKey, uid),
    });
    const record: Persisted = { version: CACHE_VERSION, savedAt: Date.now(), state };
    void set(queriesKey(uid), record, deviceStore()).catch(() => {});
  };
  const unsubscribe = qc.getQueryCache().subscribe((event) => {
    if (event.type === 'added' || event.type === 'removed' || event.type === 'updated')
      timer ??= setTimeout(save, SAVE_EVERY_MS);
  });
  const onHide = () => {
    if (timer) {
      clearTimeout(timer);
      save();
    }
  };
  window.addEventListener('pagehide', onHide);
  return () => {
    live = false;
    if (timer) clearTimeout(timer);
    unsubscribe();
    window.removeEventListener('pagehide', onHide);
  };
}

/** False once this page has dropped the device's copy (Retry): nothing more is saved from it. */
let keeping = true;

/**
 * Forgets the data this device kept of every student, not their unsent writes, and saves nothing more from
 * this page. Retry on a page that could not use its data does this before it reloads: a copy the page
 * cannot draw must not come back on every start, ahead of the server's answer.
 */
export async function forgetSavedQueries(): Promise<void> {
  keeping = false;
  forgetLastScreens();
  const all = await keys(deviceStore());
  await delMany(
    all.filter((k) => typeof k === 'string' && k.startsWith('queries:')),
    deviceStore(),
  );
}

/** Deletes everything this device kept of a student (sign-out, account deletion). */
export async function forgetDevice(uid: string): Promise<void> {
  if (restoring?.uid === uid) restoring = null;
  forgetLastScreens();
  await Promise.all([del(queriesKey(uid), deviceStore()), del(outboxKey(uid), deviceStore())]).catch(
    () => {},
  );
}
