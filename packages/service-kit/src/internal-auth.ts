import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
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

/**
 * The HMAC key of internal calls, derived from INTERNAL_TOKEN (its own purpose, never the token itself).
 * A KeyObject, prepared once: `createHmac` given a Buffer prepares the key again on every call (13-17 µs
 * each, 11-12 % of the distributed gateway's and user-data's busy time in a profile), given a KeyObject
 * about 3 µs.
 */
export type InternalKey = KeyObject & { readonly __internalKey: true };

export function internalKey(secret: string): InternalKey {
  return createSecretKey(
    createHmac('sha256', secret).update('college-ready/internal-call/v1').digest(),
  ) as InternalKey;
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

/** The claims of a header whose signature checked out, its identity read (`a` undefined: malformed). */
type Verified = Omit<Claims, 'a'> & { a: AuthContext | null | undefined };

/** A header's claims if its signature is ours, whatever the request (the request is checked after). */
function signedClaims(key: InternalKey, header: string): Verified | undefined {
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
  if (typeof claims.x !== 'number' || typeof claims.m !== 'string' || typeof claims.u !== 'string')
    return undefined;
  return { m: claims.m, u: claims.u, x: claims.x, a: asAuth(claims.a) };
}

/**
 * Whether signed claims hold for this request now: not expired, same method, same URL. A URL equal to the
 * signed (parsed) form is that form, so it is compared as is first; only another spelling is parsed.
 */
function claimsHold(c: Verified, request: { method: string; url: string }, now: number): boolean {
  const nowS = now / 1000;
  if (c.x < nowS || c.x > nowS + INTERNAL_CALL_TTL_S + 5) return false;
  if (c.m !== request.method.toUpperCase()) return false;
  return (c.u === request.url && !c.u.startsWith('//')) || c.u === canonicalUrl(request.url);
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
  const c = signedClaims(key, header);
  return c && claimsHold(c, request, now) ? c.a : undefined;
}

/** `verifyInternalCall` with a key bound, keeping what it verified for the current second. */
export type InternalVerifier = (
  header: string | undefined,
  request: { method: string; url: string },
  now?: number,
) => AuthContext | null | undefined;

/**
 * `verifyInternalCall`, keeping each header whose signature checked out until the clock's second ends: a
 * header is signed for one call (method, URL, identity, expiry in whole seconds), and the same call made
 * again within the second carries the same bytes, so its HMAC, base64 and JSON are not done again. Only
 * headers that verified are kept (a forged one costs its HMAC every time); expiry, method and URL are
 * still checked on every request, so a kept header answers exactly what a fresh check would. At most
 * `max` headers are kept in a second; the rest are checked as usual.
 */
export function internalVerifier(key: InternalKey, max = 10_000): InternalVerifier {
  let second = 0;
  const verified = new Map<string, Verified>();
  return (header, request, now = Date.now()) => {
    if (!header) return undefined;
    const s = Math.floor(now / 1000);
    if (s !== second) {
      verified.clear();
      second = s;
    }
    let c = verified.get(header);
    if (!c) {
      c = signedClaims(key, header);
      if (!c) return undefined;
      if (verified.size < max) verified.set(header, c);
    }
    return claimsHold(c, request, now) ? c.a : undefined;
  };
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
