import type { User } from 'firebase/auth';
import {
  createContext,
  startTransition,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { api, setTokenSource } from '../api/client';
import { useConfig } from '../config';
import { outboxState } from '../offline/outbox';
import { authErrorCode } from './errors';
import { announceSignOut, onSignOutElsewhere, unsentAtSignOut } from './session-channel';
import { whenAuthStarts } from './sdk-started';
import {
  MIN_TOKEN_LIFE_MS,
  readStoredSession,
  usable,
  type SessionUser,
  type StoredRead,
  type StoredSession,
} from './stored';

/**
 * Asks the browser to drop its HTTP cache of this site (the answer carries `Clear-Site-Data: "cache"`), so
 * the next person on a shared computer finds none of the student's answers there (issue 50.5). The API's
 * answers are `no-store` already; this also clears what an older build let the browser keep.
 */
function forgetHttpCache(): void {
  void fetch('/api/signed-out', { method: 'POST', keepalive: true }).catch(() => {});
}

export type { SessionUser } from './stored';

/**
 * Why the last session of this tab ended: the student signed out here (`signed-out`), the provider or the
 * API said it can no longer be used (`expired`: password changed or sessions revoked elsewhere;
 * `disabled`), or it went away for a reason the app did not see (`gone`: another tab signed out).
 */
export type SessionEnd = 'signed-out' | 'expired' | 'disabled' | 'gone';

export interface Session {
  /** The student: the SDK's user, or until the SDK has started, the copy this device stored of it. */
  user: SessionUser | null;
  /** Set when a session of this tab ended; null before any and after the next sign-in. */
  ended: SessionEnd | null;
  /** True until the first state is known (the stored session, or the provider's first report). */
  loading: boolean;
  /** True only when the role lookup succeeded and returned `admin`. */
  isAdmin: boolean;
  /**
   * The SDK's user, for the calls that need it (re-authentication, profile and password changes); rejects
   * with `auth/user-token-expired` when the session has ended.
   */
  sdkUser(): Promise<User>;
  /** Re-reads the user after a profile change (display name). */
  refreshUser(): Promise<void>;
  /**
   * Signs out; false when the student chose to stay signed in (changes made offline still waiting).
   * `ask` false: no question (the account is gone, and its waiting changes with it).
   */
  signOut(ask?: boolean): Promise<boolean>;
}

const SessionContext = createContext<Session | null>(null);

/** Messages from the API that mean the session is over: sign out. */
const SESSION_OVER = /expired|revoked|disabled|no longer exists|not verified/i;

/** Why an API 401 ended the session. */
const endOf = (message: string): SessionEnd => (/disabled/i.test(message) ? 'disabled' : 'expired');

/** Provider codes that mean this session can never be refreshed again. */
const SESSION_DEAD = new Set([
  'auth/user-disabled',
  'auth/user-token-expired',
  'auth/user-not-found',
  'auth/invalid-user-token',
]);

/** How often a signed-in account is re-read, so a disabled account is noticed while the tab is open. */
const RECHECK_MS = 5 * 60_000;

/** A stored token is sent while it has at least this long to live; after that the SDK gives a fresh one. */
const STORED_TOKEN_MARGIN_MS = 60_000;

type Firebase = typeof import('../firebase');

let sdkChunk: Promise<Firebase> | null = null;
/** The Firebase SDK's chunk, imported once. */
const importSdk = () => (sdkChunk ??= import('../firebase'));

let stored: Promise<StoredRead> | null = null;
/** The stored session once read (undefined until then): the first render starts from it when it is in. */
let storedRead: StoredRead | undefined;
/**
 * The session this device stored, read once per page load. main.tsx starts the read before the first
 * render and waits a moment for it, so the first screen already knows the student (or that nobody is
 * signed in).
 */
export function readSessionEarly(apiKey: string): Promise<StoredRead> {
  return (stored ??= readStoredSession(apiKey).then((s) => (storedRead = s)));
}

/**
 * Follows the provider's state changes (sign-in, sign-out, token refresh), keeps the API client's token
 * fresh, signs out when the provider says the account is disabled or the session expired, and looks up
 * the staff role.
 *
 * Neither a visitor nor a returning student waits for the SDK (its download, start-up and account lookup).
 * With nobody signed in on the device, it loads only with a page that needs it (the login form). A
 * returning student's pages ask for their data at once with the user and ID token the SDK stored on this
 * device (read from IndexedDB in a few milliseconds); the SDK starts when that token nears its expiry, or
 * sooner when something needs it. When the stored token is old, the pages are still drawn from the
 * device's data at once, and their calls wait for the SDK's new token. The server checks every token as
 * always (signature, expiry, revocation, a disabled or deleted account), on every call and on the recheck
 * below; when the SDK reports, its user replaces the stored copy, or the session ends.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const config = useConfig();
  const [fb, setFb] = useState<Firebase | null>(null);
  // What the device said before the first render, when it was in by then (main.tsx waits a moment for it).
  const [first] = useState(() => storedRead);
  const known = first && first !== 'nobody' ? first : null;
  const [user, setUser] = useState<SessionUser | null>(known?.user ?? null);
  const [loading, setLoading] = useState(first === undefined || first === null);
  const [isAdmin, setIsAdmin] = useState(false);
  const [version, setVersion] = useState(0);
  const [ended, setEnded] = useState<SessionEnd | null>(null);
  /** Why the session is about to end, when the app ends it (read when the provider reports no user). */
  const ending = useRef<SessionEnd | null>(null);
  const hadUser = useRef(known !== null);
  /** The stored session in use until the SDK's first report. */
  const early = useRef<StoredSession | null>(known);

  /** Whether the SDK's module has been handed to the effect that follows it (once, not on every call). */
  const handed = useRef(false);
  /** The SDK, loaded on first use. */
  const sdk = useCallback(
    () =>
      importSdk().then((m) => {
        if (!handed.current) {
          handed.current = true;
          setFb(m);
        }
        return m;
      }),
    [],
  );
  /** The SDK's Auth once it has read its own stored state (and reloaded the user). */
  const readyAuth = useCallback(
    async (m?: Firebase) => {
      const auth = (m ?? (await sdk())).firebaseAuth();
      await auth.authStateReady();
      return auth;
    },
    [sdk],
  );

  /** Ends a session that can no longer be used, remembering why (for the notice on /login). */
  const end = useCallback(
    async (why: SessionEnd) => {
      ending.current = why;
      const m = await sdk();
      const auth = await readyAuth(m);
      // The SDK may already have signed out by itself (it does on an invalidated user): say why anyway.
      if (!auth.currentUser) setEnded((e) => (e === 'signed-out' ? e : why));
      const uid = auth.currentUser?.uid;
      await m.signOut(auth).catch(() => {});
      if (uid && why !== 'gone') announceSignOut(uid);
      forgetHttpCache();
    },
    [sdk, readyAuth],
  );

  /** Ends the session when the provider says it can never be refreshed again. */
  const endIfDead = useCallback(
    async (err: unknown) => {
      const code = authErrorCode(err);
      if (SESSION_DEAD.has(code)) await end(code === 'auth/user-disabled' ? 'disabled' : 'expired');
    },
    [end],
  );

  const signOut = useCallback(
    async (ask = true) => {
      const unsent = outboxState().writes.length;
      if (ask && unsent && !window.confirm(unsentAtSignOut(unsent))) return false;
      ending.current = 'signed-out';
      const m = await sdk();
      const auth = m.firebaseAuth();
      const uid = auth.currentUser?.uid ?? early.current?.user.uid ?? null;
      await m.signOut(auth);
      if (uid) announceSignOut(uid);
      forgetHttpCache();
      return true;
    },
    [sdk],
  );

  // The stored session first: with one, the pages start at once and the SDK follows after the load.
  useEffect(() => {
    let live = true;
    setTokenSource(
      async () => {
        const s = early.current;
        if (s?.fresh && s.expiresAt - Date.now() > STORED_TOKEN_MARGIN_MS) return s.token;
        // Nobody is signed in (yet): a public page's call goes without waiting for the SDK.
        if (!hadUser.current) return null;
        const u = (await readyAuth()).currentUser;
        if (!u) return null;
        try {
          return await u.getIdToken();
        } catch (err) {
          // A network hiccup keeps the session; a disabled account or an expired session ends it.
          await endIfDead(err);
          return null;
        }
      },
      (message) => {
        if (SESSION_OVER.test(message)) void end(endOf(message));
      },
    );
    let cancelWait = () => {};
    let sdkTimer: ReturnType<typeof setTimeout> | undefined;
    const onVisible = () => {
      if (document.visibilityState !== 'visible') return;
      // Signed in meanwhile in another tab: the SDK follows it from here.
      void readStoredSession(config.firebase.apiKey).then((s) => live && s !== 'nobody' && void sdk());
    };
    void readSessionEarly(config.firebase.apiKey).then((s) => {
      if (!live) return;
      if (s === null) {
        // Storage cannot tell: the SDK says who is signed in.
        void sdk();
        return;
      }
      if (s === 'nobody') {
        // Nobody is signed in here: no SDK until a page needs it (the login form loads it, and the
        // session follows it from then on) or a sign-in in another tab is seen on coming back.
        startTransition(() => setLoading(false));
        cancelWait = whenAuthStarts(() => void sdk());
        document.addEventListener('visibilitychange', onVisible);
        return;
      }
      early.current = s;
      hadUser.current = true;
      startTransition(() => {
        setUser(s.user);
        setLoading(false);
      });
      // An old token (after an hour away): the page is drawn from the device meanwhile, and its calls
      // wait for the SDK's fresh token, so the SDK starts now. A fresh one serves until it nears its
      // expiry: the SDK starts then, to refresh it, or sooner when something needs it (an account action,
      // signing out, a change of the stored session seen on coming back to the tab).
      if (s.fresh) sdkTimer = setTimeout(() => void sdk(), s.expiresAt - MIN_TOKEN_LIFE_MS - Date.now());
      else void sdk();
    });
    return () => {
      live = false;
      clearTimeout(sdkTimer);
      cancelWait();
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [config, sdk, readyAuth, end, endIfDead]);

  useEffect(() => {
    if (!fb) return;
    const auth = fb.firebaseAuth();
    // onIdTokenChanged reports sign-in, sign-out and every token refresh.
    const report = (u: User | null) => {
      const stored = early.current;
      early.current = null;
      const next = usable(u);
      if (!next && stored?.fresh && hadUser.current && !ending.current) {
        // The SDK dropped the session this device stored as it started (it checks the account then, and
        // says nothing of why): the server is asked, with the stored token. Its 401 (a disabled account,
        // sessions ended elsewhere) ends the session with that reason, as on any call. An old token would
        // only be refused as old, so then the student is told they were signed out.
        void api
          .getStaffRoles({ userId: stored.user.uid }, { token: stored.token })
          .catch(() => {})
          .finally(() => startTransition(() => apply(null)));
        return;
      }
      apply(next);
    };
    const apply = (next: User | null) => {
      if (next) {
        // A new sign-in starts afresh; the SDK confirming the session this device stored does not (an end
        // the app has begun meanwhile, on a 401, keeps its reason).
        if (!hadUser.current) {
          ending.current = null;
          setEnded(null);
        }
        hadUser.current = true;
      } else if (hadUser.current) {
        hadUser.current = false;
        setEnded(ending.current ?? 'gone');
      }
      setUser(next);
      setVersion((v) => v + 1);
      setLoading(false);
    };
    // The state change renders as a transition: the page a sign-in reveals is drawn in short slices.
    return fb.onIdTokenChanged(auth, (u) => startTransition(() => report(u)));
  }, [fb]);

  const uid = user?.uid ?? null;
  // Signed out in another tab: this one ends the session at once, without waiting for the provider's
  // own storage check (DeviceStore then forgets what this tab holds of the student).
  useEffect(() => {
    if (!uid) return;
    return onSignOutElsewhere((gone) => {
      if (gone !== uid) return;
      // At once, before the SDK (perhaps not loaded in this tab yet) has signed out here too.
      ending.current = 'gone';
      hadUser.current = false;
      early.current = null;
      startTransition(() => {
        setEnded('gone');
        setUser(null);
      });
      void sdk()
        .then((m) => m.signOut(m.firebaseAuth()))
        .catch(() => {});
    });
  }, [uid, sdk]);

  // Coming back to the tab, and every few minutes, re-reads the account, so a disabled account is noticed
  // while the tab is open: through the SDK, or before it has started, through the server (it checks the
  // account on every call, and its 401 ends the session with the reason).
  useEffect(() => {
    if (!uid) return;
    const recheck = () => {
      if (document.visibilityState !== 'visible') return;
      if (early.current) {
        api.getStaffRoles({ userId: uid }).catch(() => {});
        // Signed out (or in as someone else) in another tab: the SDK starts and says so.
        void readStoredSession(config.firebase.apiKey).then(
          (s) => (s === 'nobody' || (s !== null && s.user.uid !== uid)) && void sdk(),
        );
      } else fb?.firebaseAuth().currentUser?.reload().catch(endIfDead);
    };
    const timer = setInterval(recheck, RECHECK_MS);
    document.addEventListener('visibilitychange', recheck);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', recheck);
    };
  }, [uid, fb, endIfDead, config, sdk]);

  useEffect(() => {
    let cancelled = false;
    setIsAdmin(false);
    if (!uid) return;
    api
      .getStaffRoles({ userId: uid })
      .then((r) => !cancelled && startTransition(() => setIsAdmin(r.success && r.data === 'admin')))
      .catch((err: unknown) => {
        // a failed lookup (no role, network, server) means not admin
        if (!cancelled) console.info('role lookup:', err instanceof Error ? err.message : err);
      });
    return () => {
      cancelled = true;
    };
  }, [uid]);

  // A hook for tests and assistive tooling: the page says whether a session is established.
  useEffect(() => {
    const root = document.documentElement;
    root.dataset.session = loading ? 'loading' : uid ? 'signed-in' : 'signed-out';
    root.dataset.admin = String(isAdmin);
  }, [loading, uid, isAdmin]);

  const sdkUser = useCallback(async () => {
    const u = usable((await readyAuth()).currentUser);
    if (u) return u;
    throw Object.assign(new Error('The session has ended.'), { code: 'auth/user-token-expired' });
  }, [readyAuth]);

  const refreshUser = useCallback(async () => {
    const auth = await readyAuth();
    await auth.currentUser?.reload();
    setUser(usable(auth.currentUser));
    setVersion((v) => v + 1);
  }, [readyAuth]);

  // `version` is in the deps: the SDK mutates the same User object, so consumers must be told it changed.
  const value = useMemo(
    () => ({ user, ended, loading, isAdmin, sdkUser, refreshUser, signOut }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [user, ended, loading, isAdmin, sdkUser, refreshUser, signOut, version],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const s = useContext(SessionContext);
  if (!s) throw new Error('SessionProvider missing');
  return s;
}
