import type { User } from 'firebase/auth';

/**
 * What the app reads of a signed-in student: the fields the SDK's `User` and its stored record share.
 * Until the SDK has started, the session holds the stored record's copy.
 */
export type SessionUser = Pick<
  User,
  'uid' | 'email' | 'displayName' | 'photoURL' | 'emailVerified' | 'isAnonymous' | 'providerData'
>;

/** The signed-in student this device remembers, with the ID token the SDK last stored for them. */
export interface StoredSession {
  user: SessionUser;
  token: string;
  /** When the token expires (ms since the epoch). */
  expiresAt: number;
  /** Whether the token has more than MIN_TOKEN_LIFE_MS to live, when read: only then is it sent. */
  fresh: boolean;
}

// Where the Firebase web SDK keeps its signed-in user (indexedDBLocalPersistence: the first persistence
// firebase.ts names). A browser test (tests/browser/session-early.test.ts) fails if a new SDK moves it.
const DB_NAME = 'firebaseLocalStorageDb';
const STORE = 'firebaseLocalStorage';
const userKey = (apiKey: string) => `firebase:authUser:${apiKey}:[DEFAULT]`;

/**
 * A stored token closer to its expiry than this is not sent: the page is drawn from the stored user and
 * the device's data at once, and the calls wait for the SDK's fresh token.
 */
export const MIN_TOKEN_LIFE_MS = 5 * 60_000;

/**
 * A password account counts as signed in only once its e-mail is verified; a guest (anonymous) account
 * never does (the server refuses it too).
 */
export function usable<U extends SessionUser>(u: U | null): U | null {
  if (!u || u.isAnonymous) return null;
  const passwordOnly = u.providerData.length > 0 && u.providerData.every((p) => p.providerId === 'password');
  return passwordOnly && !u.emailVerified ? null : u;
}

const text = (v: unknown): string | null => (typeof v === 'string' && v ? v : null);

/**
 * The stored record, if it is a usable user. An old token (after an hour away, say) still names the
 * student whose data this device holds; `fresh` says whether it may be sent.
 */
export function parseStoredUser(record: unknown, now = Date.now()): StoredSession | null {
  if (!record || typeof record !== 'object') return null;
  const r = record as Record<string, unknown>;
  const sts = r.stsTokenManager as Record<string, unknown> | undefined;
  const uid = text(r.uid);
  const token = text(sts?.accessToken);
  const expiresAt = typeof sts?.expirationTime === 'number' ? sts.expirationTime : NaN;
  if (!uid || !token || !Number.isFinite(expiresAt)) return null;
  const providers = Array.isArray(r.providerData) ? (r.providerData as Array<Record<string, unknown>>) : [];
  const user: SessionUser = {
    uid,
    email: text(r.email),
    displayName: text(r.displayName),
    photoURL: text(r.photoURL),
    emailVerified: r.emailVerified === true,
    isAnonymous: r.isAnonymous !== false,
    providerData: providers.map((p) => ({
      providerId: text(p.providerId) ?? '',
      uid: text(p.uid) ?? '',
      displayName: text(p.displayName),
      email: text(p.email),
      phoneNumber: text(p.phoneNumber),
      photoURL: text(p.photoURL),
    })),
  };
  const ok = usable(user);
  return ok ? { user: ok, token, expiresAt, fresh: expiresAt - now > MIN_TOKEN_LIFE_MS } : null;
}

/**
 * What this device says of who is signed in: the stored session, `'nobody'` when the SDK has stored no user
 * at all (its database and the web storage it falls back on hold none), or null when that cannot be told
 * (storage could not be read, or it holds a user the app does not count as signed in, such as an
 * unverified one, whom only the SDK can follow).
 */
export type StoredRead = StoredSession | 'nobody' | null;

/**
 * The user in the web storage the SDK falls back on when IndexedDB cannot be used (firebase.ts names both
 * after it): a session, `'nobody'` when neither holds one, null when one holds a user the app cannot use.
 */
function readWebStorage(apiKey: string): StoredRead {
  try {
    const raw = localStorage.getItem(userKey(apiKey)) ?? sessionStorage.getItem(userKey(apiKey));
    if (raw === null) return 'nobody';
    return parseStoredUser(JSON.parse(raw));
  } catch {
    return null;
  }
}

/**
 * Reads the signed-in user the SDK stored on this device, without loading the SDK: a few milliseconds of
 * IndexedDB instead of the SDK's download, start-up and account lookup. Creates nothing: when the SDK has
 * never stored anything here, the database is left for the SDK to create (and nobody is signed in).
 */
export function readStoredSession(apiKey: string): Promise<StoredRead> {
  return new Promise((resolve) => {
    let open: IDBOpenDBRequest;
    try {
      open = indexedDB.open(DB_NAME);
    } catch {
      resolve(null);
      return;
    }
    /** The SDK never stored anything in IndexedDB here: only its web-storage fallback may hold a user. */
    let none = false;
    open.onupgradeneeded = () => {
      none = true;
      open.transaction?.abort();
    };
    open.onerror = () => resolve(none ? readWebStorage(apiKey) : null);
    open.onblocked = () => resolve(null);
    open.onsuccess = () => {
      const db = open.result;
      const done = (v: StoredRead) => {
        db.close();
        resolve(v);
      };
      try {
        if (!db.objectStoreNames.contains(STORE)) return done(readWebStorage(apiKey));
        const get = db.transaction(STORE, 'readonly').objectStore(STORE).get(userKey(apiKey));
        get.onsuccess = () => {
          const value = (get.result as { value?: unknown } | undefined)?.value;
          done(value === undefined ? readWebStorage(apiKey) : parseStoredUser(value));
        };
        get.onerror = () => done(null);
      } catch {
        done(null);
      }
    };
  });
}
