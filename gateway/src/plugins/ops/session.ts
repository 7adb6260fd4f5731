import { createHmac, timingSafeEqual } from 'node:crypto';

/** Cookie that lets an admin's browser open the queue dashboard (its pages cannot send a bearer token). */
export const OPS_COOKIE = 'ct_ops';
/** Where the dashboard lives; the cookie is sent nowhere else. */
export const OPS_PATH = '/ops/queues';

const b64 = (s: string) => Buffer.from(s).toString('base64url');

function sign(key: string, payload: string): string {
  return createHmac('sha256', key).update(`ops-session:${payload}`).digest('base64url');
}

/** Who a dashboard session is for, and since when. */
export interface OpsSession {
  uid: string;
  /** When the session started (ms): a role granted after it means the role was revoked meanwhile. */
  startedAtMs: number;
  /** The sign-in (`auth_time`, seconds) of the token that started it: tokens revoked since end it too. */
  authTime: number;
}

/**
 * A signed, short-lived dashboard session for one uid: `<payload>.<hmac>`. The key is OPS_SESSION_SECRET,
 * which every gateway replica shares, so any replica accepts it; it is nothing else's key, so a cookie
 * never tells anything about the key that signs internal calls. It only says who signed in, when, and
 * with which sign-in; the account's state and the admin role are checked again on every request.
 */
export function createOpsSession(
  key: string,
  uid: string,
  ttlSeconds: number,
  now = Date.now(),
  authTime = Math.floor(now / 1000),
): string {
  const payload = b64(
    JSON.stringify({ uid, exp: Math.floor(now / 1000) + ttlSeconds, at: now, auth: authTime }),
  );
  return `${payload}.${sign(key, payload)}`;
}

/** The session of a valid, unexpired value; null for anything else. */
export function readOpsSession(key: string, value: string | undefined, now = Date.now()): OpsSession | null {
  if (!value) return null;
  const [payload, mac] = value.split('.');
  if (!payload || !mac) return null;
  const expected = Buffer.from(sign(key, payload));
  const given = Buffer.from(mac);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    const { uid, exp, at, auth } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<
      string,
      unknown
    >;
    if (typeof uid !== 'string' || !uid || typeof exp !== 'number') return null;
    if (typeof at !== 'number' || typeof auth !== 'number') return null;
    return exp * 1000 > now ? { uid, startedAtMs: at, authTime: auth } : null;
  } catch {
    return null;
  }
}

/** The value of one cookie from a Cookie header. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return undefined;
}
