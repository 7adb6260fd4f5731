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
  private readonly maxTokens: number;

  constructor(private readonly opts: VerifierOptions) {
    if (opts.emulatorHost) process.env.FIREBASE_AUTH_EMULATOR_HOST = opts.emulatorHost;
    this.app = initializeApp({ projectId: opts.projectId }, `gateway-${++appSeq}`);
    this.auth = getAuth(this.app);
    this.maxTokens = opts.maxCachedTokens ?? 50_000;
  }

  private async userState(uid: string, force: boolean): Promise<UserState> {
    const cached = this.users.get(uid);
    if (!force && cached && Date.now() - cached.at < this.opts.userCacheMs) return cached;
    const u = await this.auth.getUser(uid);
    const state: UserState = {
      disabled: u.disabled,
      validSinceMs: u.tokensValidAfterTime ? Date.parse(u.tokensValidAfterTime) : 0,
      emailVerified: u.emailVerified,
      at: Date.now(),
    };
    this.users.set(uid, state);
    return state;
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
    if (!user || Date.now() - user.at >= this.opts.userCacheMs) return undefined;
    return this.decide(token, decoded, user);
  }

  /** Verifies a raw token: the identity, or why it is refused. */
  async verify(token: string): Promise<AuthContext | { error: string }> {
    try {
      let decoded = this.tokens.get(token);
      let fresh = false;
      if (!decoded || decoded.exp * 1000 <= Date.now()) {
        if (decoded) this.tokens.delete(token);
        decoded = await this.auth.verifyIdToken(token, false);
        fresh = true;
        if (this.tokens.size >= this.maxTokens) this.tokens.delete(this.tokens.keys().next().value as string);
        this.tokens.set(token, decoded);
      }
      return this.decide(token, decoded, await this.userState(decoded.uid, fresh));
    } catch (err) {
      return { error: reason(err) };
    }
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
