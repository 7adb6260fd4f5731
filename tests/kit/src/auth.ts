import { randomUUID } from 'node:crypto';
import { DEFAULT_PROJECT_ID } from '../../../scripts/lib/auth-emulator.ts';

/** Talks to the Auth emulator's REST API the way the Firebase SDKs do, for tests and tools. */
export function emulatorHost(): string {
  const h = process.env.FIREBASE_AUTH_EMULATOR_HOST;
  if (!h) throw new Error('FIREBASE_AUTH_EMULATOR_HOST is not set (the test harness starts the emulator)');
  return h;
}

function projectId(): string {
  return process.env.FIREBASE_PROJECT_ID ?? DEFAULT_PROJECT_ID;
}

async function post<T>(path: string, body: unknown, admin = false): Promise<T> {
  const res = await fetch(`http://${emulatorHost()}/identitytoolkit.googleapis.com/v1/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(admin ? { authorization: 'Bearer owner' } : {}) },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as T & { error?: { message: string } };
  if (!res.ok) throw new Error(`auth emulator ${path}: ${json.error?.message ?? res.status}`);
  return json;
}

export interface TestUser {
  uid: string;
  email: string;
  password: string;
  name: string;
  idToken: string;
  refreshToken: string;
}

export function uniqueEmail(prefix = 'student'): string {
  return `${prefix}-${randomUUID().slice(0, 12)}@example.com`;
}

export async function signUp(email: string, password: string, name?: string): Promise<TestUser> {
  const r = await post<{ localId: string; idToken: string; refreshToken: string }>(
    'accounts:signUp?key=test',
    {
      email,
      password,
      returnSecureToken: true,
    },
  );
  if (name)
    await post('accounts:update?key=test', {
      idToken: r.idToken,
      displayName: name,
      returnSecureToken: false,
    });
  return {
    uid: r.localId,
    email,
    password,
    name: name ?? '',
    idToken: r.idToken,
    refreshToken: r.refreshToken,
  };
}

/** A guest account, as the web SDK's signInAnonymously makes one: no e-mail, provider `anonymous`. */
export async function signUpAnonymously(): Promise<{ uid: string; idToken: string }> {
  const r = await post<{ localId: string; idToken: string }>('accounts:signUp?key=test', {
    returnSecureToken: true,
  });
  return { uid: r.localId, idToken: r.idToken };
}

export async function signIn(email: string, password: string): Promise<string> {
  const r = await post<{ idToken: string }>('accounts:signInWithPassword?key=test', {
    email,
    password,
    returnSecureToken: true,
  });
  return r.idToken;
}

/** Admin update of an account (emulator accepts `Bearer owner`). */
export async function adminUpdate(uid: string, fields: Record<string, unknown>): Promise<void> {
  await post(`projects/${projectId()}/accounts:update`, { localId: uid, ...fields }, true);
}

/** Whether the Auth emulator still has an account with this uid (an admin lookup, as the console does). */
export async function accountExists(uid: string): Promise<boolean> {
  const r = await post<{ users?: unknown[] }>(
    `projects/${projectId()}/accounts:lookup`,
    { localId: [uid] },
    true,
  );
  return (r.users ?? []).length > 0;
}

export const markVerified = (uid: string) => adminUpdate(uid, { emailVerified: true });
export const disableUser = (uid: string) => adminUpdate(uid, { disableUser: true });
/** Revokes every token issued before the next second (what revokeRefreshTokens does, one second ahead). */
export const revokeTokens = (uid: string) =>
  adminUpdate(uid, { validSince: String(Math.floor(Date.now() / 1000) + 1) });

/** A verified e-mail/password user with a fresh ID token. */
export async function createVerifiedUser(
  opts: { name?: string; email?: string; password?: string } = {},
): Promise<TestUser> {
  const email = opts.email ?? uniqueEmail();
  const password = opts.password ?? 'Secret-pass-123';
  const u = await signUp(email, password, opts.name ?? 'Test Student');
  await markVerified(u.uid);
  return { ...u, idToken: await signIn(email, password) };
}

export interface OobCode {
  email: string;
  oobCode: string;
  oobLink: string;
  requestType: string;
}

/** E-mail verification and password reset codes the emulator "sent". */
export async function oobCodes(): Promise<OobCode[]> {
  const res = await fetch(`http://${emulatorHost()}/emulator/v1/projects/${projectId()}/oobCodes`);
  return ((await res.json()) as { oobCodes: OobCode[] }).oobCodes;
}

/** Applies the latest verification code sent to an address, as clicking the e-mail link would. */
export async function applyVerificationCode(email: string): Promise<void> {
  const code = (await oobCodes()).filter((c) => c.email === email && c.requestType === 'VERIFY_EMAIL').at(-1);
  if (!code) throw new Error(`no verification e-mail for ${email}`);
  await post('accounts:update?key=test', { oobCode: code.oobCode });
}

/** An unsigned JWT as the emulator issues them, with chosen claims (expired, other project...). */
export function unsignedToken(claims: Record<string, unknown>): string {
  const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`;
}

/** Claims of a well-formed token for a uid; override to make it expired or foreign. */
export function tokenClaims(uid: string, over: Record<string, unknown> = {}): Record<string, unknown> {
  const now = Math.floor(Date.now() / 1000);
  const project = projectId();
  return {
    iss: `https://securetoken.google.com/${project}`,
    aud: project,
    auth_time: now - 10,
    user_id: uid,
    sub: uid,
    iat: now - 10,
    exp: now + 3600,
    email_verified: true,
    firebase: { identities: {}, sign_in_provider: 'password' },
    ...over,
  };
}
