import { applicationDefault, deleteApp, initializeApp, type App } from 'firebase-admin/app';
import { getAuth, type Auth } from 'firebase-admin/auth';

/** What the auth service needs to know about a Firebase account. */
export interface Account {
  uid: string;
  email: string | null;
  emailVerified: boolean;
  disabled: boolean;
  /** How the person signs in: `password`, `google.com`... */
  providers: string[];
}

export interface AccountsOptions {
  projectId: string;
  /** host:port of the Auth emulator; null for the real project (credentials from the environment). */
  emulatorHost: string | null;
}

let appSeq = 0;

/**
 * Firebase accounts through the Admin SDK: look one up by e-mail, end its sessions, delete it. The real
 * project needs a service account (GOOGLE_APPLICATION_CREDENTIALS); the Auth emulator needs none.
 */
export class FirebaseAccounts {
  private app: App | null = null;
  private auth: Auth | null = null;

  constructor(private readonly opts: AccountsOptions) {}

  /** The Admin SDK reads the emulator host from the process environment, at every call. */
  private client(): Auth {
    if (this.opts.emulatorHost) process.env.FIREBASE_AUTH_EMULATOR_HOST = this.opts.emulatorHost;
    if (!this.auth) {
      this.app = initializeApp(
        this.opts.emulatorHost
          ? { projectId: this.opts.projectId }
          : { projectId: this.opts.projectId, credential: applicationDefault() },
        `auth-accounts-${++appSeq}`,
      );
      this.auth = getAuth(this.app);
    }
    return this.auth;
  }

  /** The account that uses this e-mail address; null when there is none. */
  async findByEmail(email: string): Promise<Account | null> {
    try {
      const u = await this.client().getUserByEmail(email);
      return {
        uid: u.uid,
        email: u.email ?? null,
        emailVerified: u.emailVerified,
        disabled: u.disabled,
        providers: u.providerData.map((p) => p.providerId),
      };
    } catch (err) {
      if ((err as { code?: string }).code === 'auth/user-not-found') return null;
      throw err;
    }
  }

  /** Ends every session: refresh tokens stop working and tokens issued so far are refused by the gateway. */
  async revokeSessions(uid: string): Promise<void> {
    try {
      await this.client().revokeRefreshTokens(uid);
    } catch (err) {
      if ((err as { code?: string }).code !== 'auth/user-not-found') throw err;
    }
  }

  /** Deletes the account; true when it existed. */
  async delete(uid: string): Promise<boolean> {
    try {
      await this.client().deleteUser(uid);
      return true;
    } catch (err) {
      if ((err as { code?: string }).code === 'auth/user-not-found') return false;
      throw err;
    }
  }

  async close(): Promise<void> {
    if (this.app) await deleteApp(this.app).catch(() => {});
    this.app = null;
    this.auth = null;
  }
}
