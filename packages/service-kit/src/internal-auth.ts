import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { AuthContext } from './context.ts';

/**
 * The one header of a service-to-service call: a signed, short-lived statement "the gateway verified this
 * identity, for this method and URL". It replaces a shared token sent as is, which anyone who saw it once
 * (or guessed a placeholder) could reuse for any route and any user.
 */
export const INTERNAL_AUTH_HEADER = 'x-internal-auth';

/**
 * Header name prefixes that only ever mean something between our own processes. The public listener drops
 * every such header before routing (see `stripInternalHeaders`), so nothing from outside can claim them,
 * even with the right secret.
 */
export const INTERNAL_HEADER_PREFIXES = ['x-internal-', 'x-auth-'] as const;

/** How long a signed call stays valid: long enough for a slow hop, short enough to be useless if seen. */
export const INTERNAL_CALL_TTL_S = 60;

/** The HMAC key of internal calls, derived from INTERNAL_TOKEN (its own purpose, never the token itself). */
export type InternalKey = Buffer & { readonly __internalKey: true };

export function internalKey(secret: string): InternalKey {
  return createHmac('sha256', secret).update('college-ready/internal-call/v1').digest() as InternalKey;
}

interface Claims {
  /** Method, upper case. */
  m: string;
  /** Path and query, normalised as a URL parser sees them. */
  u: string;
  /** Expiry, seconds since the epoch. */
  x: number;
  /** The verified identity, or null for a call on the service's own behalf. */
  a: AuthContext | null;
}

/**
 * Path and query as the receiving side will see them: fetch and inject both run the URL parser, which
 * resolves dot segments and percent-encodes some characters, so both sides compare the parsed form.
 */
function canonicalUrl(url: string): string {
  try {
    const u = new URL(url, 'http://internal');
    return `${u.pathname}${u.search}`;
  } catch {
    return url;
  }
}

const mac = (key: InternalKey, payload: string) =>
  createHmac('sha256', key).update(payload).digest('base64url');

/** Headers that sign one internal call: `{ 'x-internal-auth': '<claims>.<hmac>' }`. */
export function signInternalCall(
  key: InternalKey,
  call: { method: string; url: string; auth: AuthContext | null },
  now = Date.now(),
): Record<string, string> {
  const claims: Claims = {
    m: call.method.toUpperCase(),
    u: canonicalUrl(call.url),
    x: Math.floor(now / 1000) + INTERNAL_CALL_TTL_S,
    a: call.auth,
  };
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return { [INTERNAL_AUTH_HEADER]: `${payload}.${mac(key, payload)}` };
}

function asAuth(a: unknown): AuthContext | null | undefined {
  if (a === null) return null;
  if (!a || typeof a !== 'object') return undefined;
  const o = a as Record<string, unknown>;
  if (typeof o.uid !== 'string' || !o.uid) return undefined;
  return {
    uid: o.uid,
    email: typeof o.email === 'string' ? o.email : null,
    emailVerified: o.emailVerified === true,
    name: typeof o.name === 'string' ? o.name : null,
    ...(typeof o.authTime === 'number' ? { authTime: o.authTime } : {}),
  };
}

/**
 * Checks a signed internal call against the request it came with. Returns the identity it carries (null
 * for a call without a user), or undefined when the header is missing, forged, expired, or was signed for
 * another method or URL.
 */
export function verifyInternalCall(
  key: InternalKey,
  header: string | undefined,
  request: { method: string; url: string },
  now = Date.now(),
): AuthContext | null | undefined {
  if (!header) return undefined;
  const dot = header.indexOf('.');
  if (dot <= 0) return undefined;
  const payload = header.slice(0, dot);
  const expected = Buffer.from(mac(key, payload));
  const given = Buffer.from(header.slice(dot + 1));
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  let claims: Partial<Claims>;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Partial<Claims>;
  } catch {
    return undefined;
  }
  const nowS = now / 1000;
  if (typeof claims.x !== 'number' || claims.x < nowS || claims.x > nowS + INTERNAL_CALL_TTL_S + 5)
    return undefined;
  if (claims.m !== request.method.toUpperCase()) return undefined;
  if (typeof claims.u !== 'string' || claims.u !== canonicalUrl(request.url)) return undefined;
  return asAuth(claims.a);
}

const X = 'x'.charCodeAt(0);

/**
 * Removes every internal header from a request that came from outside (the public listener). On every
 * request: only names starting with "x" are compared with the prefixes (header names arrive lower case).
 */
export function stripInternalHeaders(headers: IncomingHttpHeaders): void {
  for (const name in headers) {
    if (name.charCodeAt(0) !== X) continue;
    for (const p of INTERNAL_HEADER_PREFIXES) {
      if (name.startsWith(p)) {
        delete headers[name];
        break;
      }
    }
  }
}
