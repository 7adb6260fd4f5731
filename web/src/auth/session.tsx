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
import { authErrorCode } from './errors';

/**
 * Why the last session of this tab ended: the student signed out here (`signed-out`), the provider or the
 * API said it can no longer be used (`expired`: password changed or sessions revoked elsewhere;
 * `disabled`), or it went away for a reason the app did not see (`gone`: another tab signed out).
 */
export type SessionEnd = 'signed-out' | 'expired' | 'disabled' | 'gone';

export interface Session {
  user: User | null;
  /** Set when a session of this tab ended; null before any and after the next sign-in. */
  ended: SessionEnd | null;
  /** True until the provider has reported the first state. */
  loading: boolean;
  /** True only when the role lookup succeeded and returned `admin`. */
  isAdmin: boolean;
  /** Re-reads the user after a profile change (display name). */
  refreshUser(): Promise<void>;
  signOut(): Promise<void>;
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

/**
 * A password account counts as signed in only once its e-mail is verified; a guest (anonymous) account
 * never does (the server refuses it too).
 */
function usable(u: User | null): User | null {
  if (!u || u.isAnonymous) return null;
  const passwordOnly = u.providerData.length > 0 && u.providerData.every((p) => p.providerId === 'password');
  return passwordOnly && !u.emailVerified ? null : u;
}

/**
 * Follows the provider's state changes (sign-in, sign-out, token refresh), keeps the API client's token
 * fresh, signs out when the provider says the account is disabled or the session expired, and looks up
 * the staff role.
 */
type Firebase = typeof import('../firebase');

export function SessionProvider({ children }: { children: ReactNode }) {
  // The SDK arrives after the first screen; until it has reported, the session is loading.
  const [fb, setFb] = useState<Firebase | null>(null);
  useEffect(() => {
    let live = true;
    void import('../firebase').then((m) => live && setFb(m));
    return () => {
      live = false;
    };
  }, []);
  const auth = fb?.firebaseAuth() ?? null;
  const [user, setUser] = useState<User | null>(null);
  const [loading, setLoading] = useState(true);
  const [isAdmin, setIsAdmin] = useState(false);
  const [version, setVersion] = useState(0);
  const [ended, setEnded] = useState<SessionEnd | null>(null);
  /** Why the session is about to end, when the app ends it (read when the provider reports no user). */
  const ending = useRef<SessionEnd | null>(null);
  const hadUser = useRef(false);

  const signOut = useCallback(async () => {
    ending.current = 'signed-out';
    if (fb) await fb.signOut(fb.firebaseAuth());
  }, [fb]);

  useEffect(() => {
    if (!fb) return;
    const auth = fb.firebaseAuth();
    const fbSignOut = fb.signOut;
    /** Ends a session that can no longer be used, remembering why (for the notice on /login). */
    const end = (why: SessionEnd) => {
      ending.current = why;
      // The SDK may already have signed out by itself (it does on an invalidated user): say why anyway.
      if (!auth.currentUser) setEnded((e) => (e === 'signed-out' ? e : why));
      return fbSignOut(auth).catch(() => {});
    };
    const endIfDead = async (err: unknown) => {
      const code = authErrorCode(err);
      if (SESSION_DEAD.has(code)) await end(code === 'auth/user-disabled' ? 'disabled' : 'expired');
    };
    setTokenSource(
      async () => {
        const u = auth.currentUser;
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
    // onIdTokenChanged reports sign-in, sign-out and every token refresh.
    const report = (u: User | null) => {
      const next = usable(u);
      if (next) {
        hadUser.current = true;
        ending.current = null;
        setEnded(null);
      } else if (hadUser.current) {
        hadUser.current = false;
        setEnded(ending.current ?? 'gone');
      }
      setUser(next);
      setVersion((v) => v + 1);
      setLoading(false);
    };
    // The state change renders as a transition: the page a sign-in reveals is drawn in short slices.
    const off = fb.onIdTokenChanged(auth, (u) => startTransition(() => report(u)));
    const recheck = () => {
      const u = auth.currentUser;
      if (u && document.visibilityState === 'visible') u.reload().catch(endIfDead);
    };
    const timer = setInterval(recheck, RECHECK_MS);
    document.addEventListener('visibilitychange', recheck);
    return () => {
      off();
      clearInterval(timer);
      document.removeEventListener('visibilitychange', recheck);
    };
  }, [fb]);

  const uid = user?.uid ?? null;
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

  const refreshUser = useCallback(async () => {
    if (!auth) return;
    await auth.currentUser?.reload();
    setUser(usable(auth.currentUser));
    setVersion((v) => v + 1);
  }, [auth]);

  // `version` is in the deps: the SDK mutates the same User object, so consumers must be told it changed.
  const value = useMemo(
    () => ({ user, ended, loading, isAdmin, refreshUser, signOut }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [user, ended, loading, isAdmin, refreshUser, signOut, version],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const s = useContext(SessionContext);
  if (!s) throw new Error('SessionProvider missing');
  return s;
}
