/** Where a student lands after signing in when no page was asked for. */
export const HOME_SIGNED_IN = '/usercolleges';

/**
 * The page to return to after signing in, from `/login?next=...`: only a path of this site (no other
 * origin, no `//host`, no backslash tricks, not the login page itself); anything else gives null.
 */
export function safeNext(raw: string | null | undefined, origin: string): string | null {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//') || raw.includes('\\')) return null;
  let url: URL;
  try {
    url = new URL(raw, origin);
  } catch {
    return null;
  }
  if (url.origin !== new URL(origin).origin || url.pathname === '/login') return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The login page, asked to come back to `path` afterwards. */
export function loginFor(path: string): string {
  return path === '/' ? '/login' : `/login?next=${encodeURIComponent(path)}`;
}
