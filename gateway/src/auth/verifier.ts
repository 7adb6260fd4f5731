import { MSG } from '@ct/contracts';
import { uidSha256, type AuthContext } from '@ct/service-kit';
import { initializeApp, deleteApp, type App } from 'firebase-admin/app';
import { getAuth, type Auth, type DecodedIdToken } from 'firebase-admin/auth';
import { GATEWAY_MSG } from '../messages.ts';

export interface VerifierOptions {
  projectId: string;
  /** host:port of the Auth emulator; never set in production. */
  emulatorHost?: string | undefined;
  /** How long a user's disabled / revoked state is trusted before it is looked up again. */
  userCacheMs: number;
  maxCachedTokens?: number;
}

interface UserState {
  disabled: boolean;
  validSinceMs: number;
  emailVerified: boolean;
  at: number;
}

let appSeq = 0;

/** Share of `userCacheMs` after which a cached answer also starts a background lookup of the user. */
const REFRESH_AHEAD = 0.75;

/** The sign-in methods a student may use (the token's `firebase.sign_in_provider`). */
const ACCEPTED_PROVIDERS = new Set(['password', 'google.com']);

/** Maps provider error codes to what the API says. */
function reason(err: unknown): string {
  const code = (err as { code?: string }).code ?? '';
  if (code === 'auth/id-token-expired') return GATEWAY_MSG.sessionExpired;
  if (code === 'auth/id-token-revoked') return GATEWAY_MSG.sessionRevoked;
  if (code === 'auth/user-disabled') return GATEWAY_MSG.accountDisabled;
  if (code === 'auth/user-not-found') return GATEWAY_MSG.accountGone;
  return GATEWAY_MSG.badToken;
}

/**
 * Verifies Firebase ID tokens with firebase-admin. Verified tokens are cached until they expire, and
 * each user's disabled / revoked state is re-read at most every `userCacheMs`, so the hot path does no I/O.
 */
export class TokenVerifier {
  private readonly app: App;
  private readonly auth: Auth;
  private readonly tokens = new Map<string, DecodedIdToken>();
  private readonly users = new Map<string, UserState>();
  /** User lookups under way, by uid (see `lookUpUser`). */
  private readonly lookups = new Map<string, Promise<UserState>>();
  /** Token verifications under way, by token (see `decode`). */
  private readonly decoding = new Map<string, Promise<DecodedIdToken>>();
  private readonly maxTokens: number;

  constructor(private readonly opts: VerifierOptions) {
    if (opts.emulatorHost) process.env.FIREBASE_AUTH_EMULATOR_HOST = opts.emulatorHost;
    this.app = initializeApp({ projectId: opts.projectId }, `gateway-${++appSeq}`);
    this.auth = getAuth(this.app);
    this.maxTokens = opts.maxCachedTokens ?? 50_000;
  }

  private userState(uid: string, force: boolean): Promise<UserState> {
    const cached = this.users.get(uid);
    if (!force && cached && Date.now() - cached.at < this.opts.userCacheMs) return Promise.resolve(cached);
    return this.lookUpUser(uid);
  }

  /**
   * Reads a user's state from Firebase Auth, one lookup per user at a time: requests that need it while
   * it runs share it (under load, a user's state expiring used to send a lookup per waiting request, each
   * one slowing the provider's answer to the others). The state counts from when the lookup started. A
   * user found gone is forgotten, so the next request is refused at once.
   */
  private lookUpUser(uid: string): Promise<UserState> {
    let pending = this.lookups.get(uid);
    if (!pending) {
      const started = Date.now();
      pending = this.auth
        .getUser(uid)
        .then((u) => {
          const state: UserState = {
            disabled: u.disabled,
            validSinceMs: u.tokensValidAfterTime ? Date.parse(u.tokensValidAfterTime) : 0,
            emailVerified: u.emailVerified,
            at: started,
          };
          this.users.set(uid, state);
          return state;
        })
        .catch((err: unknown) => {
          if ((err as { code?: string }).code === 'auth/user-not-found') this.users.delete(uid);
          throw err;
        })
        .finally(() => this.lookups.delete(uid));
      this.lookups.set(uid, pending);
    }
    return pending;
  }

  /**
   * Verifies a token's signature and claims, one verification per token at a time: the requests that
   * bring a token the gateway has not seen yet (a client's first requests come together) share it, where
   * each used to verify it again. What is shared is only the token's own verification; the user's state
   * is checked by each request (`decide`).
   */
  private decode(token: string): Promise<DecodedIdToken> {
    let pending = this.decoding.get(token);
    if (!pending) {
      pending = this.auth
        .verifyIdToken(token, false)
        .then((decoded) => {
          if (this.tokens.size >= this.maxTokens)
            this.tokens.delete(this.tokens.keys().next().value as string);
          this.tokens.set(token, decoded);
          return decoded;
        })
        .finally(() => this.decoding.delete(token));
      this.decoding.set(token, pending);
    }
    return pending;
  }

  /**
   * The answer for a token whose verification and user state are both still cached and fresh, without
   * I/O or a promise (the hot path: every request of a signed-in student); undefined when `verify` must
   * run. The same checks as `verify` (`decide`), on the same cached facts.
   */
  cached(token: string): AuthContext | { error: string } | undefined {
    const decoded = this.tokens.get(token);
    if (!decoded || decoded.exp * 1000 <= Date.now()) return undefined;
    const user = this.users.get(decoded.uid);
    const age = user ? Date.now() - user.at : Infinity;
    if (!user || age >= this.opts.userCacheMs) return undefined;
    // Read again ahead of time, in the background: requests never wait for it while the state held is
    // still within the time it may be trusted.
    if (age >= this.opts.userCacheMs * REFRESH_AHEAD && !this.lookups.has(decoded.uid))
      this.lookUpUser(decoded.uid).catch(() => {});
    return this.decide(token, decoded, user);
  }

  /** Verifies a raw token: the identity, or why it is refused. */
  async verify(token: string): Promise<AuthContext | { error: string }> {
    try {
      let decoded = this.tokens.get(token);
      let fresh = false;
      if (!decoded || decoded.exp * 1000 <= Date.now()) {
        if (decoded) this.tokens.delete(token);
        decoded = await this.decode(token);
        fresh = true;
      }
      return this.decide(token, decoded, await this.userState(decoded.uid, fresh));
    } catch (err) {
      return { error: reason(err) };
    }
  }

  /**
   * Why an account may no longer act on a sign-in made at `authTime` (seconds), with no token at hand (the
   * queue dashboard's cookie): disabled, its tokens revoked since, or gone. Null when it still may. The same
   * user state, cached for the same time, as every bearer token's check (`decide`).
   */
  async accountRefusal(uid: string, authTime: number): Promise<string | null> {
    let user: UserState;
    try {
      user = await this.userState(uid, false);
    } catch (err) {
      return reason(err);
    }
    if (user.disabled) return GATEWAY_MSG.accountDisabled;
    if (authTime * 1000 < user.validSinceMs) return GATEWAY_MSG.sessionRevoked;
    return null;
  }

  /** Drops what is cached for a deleted account (named by its uid's SHA-256): its tokens and its state. */
  forget(hash: string): void {
    for (const uid of this.users.keys()) if (uidSha256(uid) === hash) this.users.delete(uid);
    for (const [token, decoded] of this.tokens)
      if (uidSha256(decoded.uid) === hash) this.tokens.delete(token);
  }

  /**
   * Every per-request check of a verified token against its user's state: the one place for them, run on
   * every request whether the facts were cached or just fetched (a check added here, such as one for a
   * deleted account, holds on the hot path too). Synchronous: what it needs is in `UserState`.
   */
  private decide(token: string, decoded: DecodedIdToken, user: UserState): AuthContext | { error: string } {
    if (user.disabled) return { error: GATEWAY_MSG.accountDisabled };
    // auth_time is in seconds; tokens issued before a revocation are refused.
    if (decoded.auth_time * 1000 < user.validSinceMs) {
      this.tokens.delete(token);
      return { error: GATEWAY_MSG.sessionRevoked };
    }
    // Students sign in with a verified e-mail and password, or with Google: nothing else makes a student
    // (a guest account from signInAnonymously would otherwise get a profile of its own).
    const provider = decoded.firebase?.sign_in_provider;
    if (provider === 'anonymous') return { error: MSG.guestSignInRefused };
    if (!provider || !ACCEPTED_PROVIDERS.has(provider)) return { error: MSG.signInMethodRefused };
    const verified = decoded.email_verified === true || user.emailVerified || provider === 'google.com';
    if (!verified) return { error: MSG.emailNotVerified };
    return {
      uid: decoded.uid,
      email: decoded.email ?? null,
      emailVerified: verified,
      name: typeof decoded.name === 'string' ? decoded.name : null,
      authTime: decoded.auth_time,
    };
  }

  /** Reachability of the identity provider, for readiness. */
  async ping(): Promise<void> {
    await this.auth.listUsers(1);
  }

  async close(): Promise<void> {
    await deleteApp(this.app);
  }
}
