import type { RouteBody, RouteDef, RouteParams, RouteQuery, RouteReply } from '@ct/contracts';

/** An API failure with the server's message and code (`{ success: false, message, code }`). */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type TokenSource = () => Promise<string | null>;
let tokenSource: TokenSource = async () => null;
let onUnauthorized: (message: string) => void = () => {};

/** The session provides the current ID token (refreshed by the SDK when near expiry). */
export function setTokenSource(fn: TokenSource, unauthorized: (message: string) => void): void {
  tokenSource = fn;
  onUnauthorized = unauthorized;
}

export interface CallOptions<R extends RouteDef> {
  query?: Partial<RouteQuery<R>>;
  body?: RouteBody<R>;
  params?: RouteParams<R>;
  signal?: AbortSignal;
}

/** Sends a call with the ID token; a failure becomes an ApiError with the server's message. */
async function send<R extends RouteDef>(
  method: R['method'],
  path: R['path'],
  opts: CallOptions<R>,
  accept: string,
): Promise<{ res: Response; json: Record<string, unknown> | null }> {
  let url = `/api${path.replace(/:([A-Za-z0-9_]+)/g, (_, k: string) =>
    encodeURIComponent(String((opts.params as Record<string, unknown> | undefined)?.[k] ?? '')),
  )}`;
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries((opts.query ?? {}) as Record<string, unknown>)) {
    if (v !== undefined && v !== null) qs.set(k, String(v));
  }
  if ([...qs].length) url += `?${qs}`;
  const headers: Record<string, string> = { accept };
  const token = await tokenSource();
  if (token) headers.authorization = `Bearer ${token}`;
  let body: string | undefined;
  if (opts.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  let res: Response;
  try {
    res = await fetch(url, { method, headers, body, signal: opts.signal ?? null });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiError('Network error: check your connection and try again.', 0, 'NETWORK');
  }
  if (res.ok && accept !== 'application/json') return { res, json: null };
  let json: Record<string, unknown> = {};
  try {
    json = (await res.json()) as Record<string, unknown>;
  } catch {
    /* empty or not JSON */
  }
  if (!res.ok) {
    const message = typeof json.message === 'string' ? json.message : `Request failed (${res.status})`;
    if (res.status === 401 && token) onUnauthorized(message);
    throw new ApiError(message, res.status, typeof json.code === 'string' ? json.code : 'HTTP_ERROR');
  }
  return { res, json };
}

/**
 * Calls an API route, typed from its contract: `api<typeof searchCollege>('GET', '/search-college', {query})`.
 * Only types come from the contracts, so no schema code reaches the browser bundle.
 */
export async function api<R extends RouteDef>(
  method: R['method'],
  path: R['path'],
  opts: CallOptions<R> = {},
): Promise<RouteReply<R> & { status?: number }> {
  const { res, json } = await send(method, path, opts, 'application/json');
  return Object.assign(json ?? {}, { status: res.status }) as RouteReply<R> & { status?: number };
}

/** Calls a route that answers with text (an iCalendar file), with the same token and error handling. */
export async function apiText<R extends RouteDef>(
  method: R['method'],
  path: R['path'],
  opts: CallOptions<R> & { accept: string },
): Promise<string> {
  const { res } = await send(method, path, opts, opts.accept);
  return res.text();
}

/** A readable message for any thrown value. */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
