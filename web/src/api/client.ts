import type * as contracts from '@ct/contracts';
import type { HttpMethod, RouteBody, RouteDef, RouteParams, RouteQuery, RouteReply } from '@ct/contracts';

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

/** Where a route's input goes: the JSON body, or the query string and path parameters. */
type InputKind = 'body' | 'query' | null;
/** Every route the browser may call, by its contract name (vite.config.ts derives it from the route table). */
declare const __API_ROUTES__: Record<string, readonly [HttpMethod, string, InputKind]>;

/** The route table's routes by name, internal ones left out (only types: no schema code in the bundle). */
type C = typeof contracts;
type Routes = {
  [
    K in keyof C as C[K] extends RouteDef & { path: `/internal/${string}` }
      ? never
      : C[K] extends RouteDef
        ? K
        : never
  ]: C[K];
};
export type RouteName = keyof Routes;

export interface CallOptions {
  signal?: AbortSignal | undefined;
  /** The ID token to send instead of the session's (the session asking the server about a stored one). */
  token?: string | undefined;
  /** A queued write's id: the server applies a write sent twice with the same id once. */
  idempotencyKey?: string | undefined;
}
// A route with path parameters and no query string takes its parameters alone.
type QueryOf<R extends RouteDef> = (R['schema'] extends { querystring: object } ? RouteQuery<R> : unknown) &
  (R['schema'] extends { params: object } ? RouteParams<R> : unknown);
/** A route's arguments: its body or query (optional when every field is), then the call options. */
type Args<R extends RouteDef> = R['schema'] extends { body: object }
  ? [body: RouteBody<R>, opts?: CallOptions]
  : R['schema'] extends { querystring: object } | { params: object }
    ? object extends QueryOf<R>
      ? [query?: QueryOf<R>, opts?: CallOptions]
      : [query: QueryOf<R>, opts?: CallOptions]
    : [opts?: CallOptions];
export type Reply<N extends RouteName> = RouteReply<Routes[N]> & { status: number };

/** Sends a call with the ID token; a failure becomes an ApiError with the server's message. */
export async function send(
  method: HttpMethod,
  path: string,
  opts: CallOptions & { query?: object | undefined; body?: unknown },
  accept = 'application/json',
): Promise<{ res: Response; json: Record<string, unknown> | null }> {
  const params = (opts.query ?? {}) as Record<string, unknown>;
  let url = `/api${path.replace(/:([A-Za-z0-9_]+)/g, (_, k: string) => encodeURIComponent(String(params[k] ?? '')))}`;
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v !== undefined && v !== null && !path.includes(`:${k}`)) qs.set(k, String(v));
  }
  if ([...qs].length) url += `?${qs}`;
  const headers: Record<string, string> = { accept };
  const token = opts.token ?? (await tokenSource());
  if (token) headers.authorization = `Bearer ${token}`;
  if (opts.idempotencyKey) headers['idempotency-key'] = opts.idempotencyKey;
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

/** Sends a route's call by name, its input placed as the route table says. */
function call(name: string, args: unknown[], accept?: string) {
  const route = __API_ROUTES__[name];
  if (!route) throw new Error(`No API route named ${name}`);
  const [method, path, kind] = route;
  const opts = ((kind ? args[1] : args[0]) ?? {}) as CallOptions;
  return send(method, path, { ...opts, [kind ?? 'query']: kind ? args[0] : undefined }, accept);
}

/**
 * The typed API client, one method per route of the route table: `api.addCollege({ name })`,
 * `api.searchCollege({ name }, { signal })`. Replies are typed from the route's response schemas.
 */
export const api = new Proxy({} as { [N in RouteName]: (...args: Args<Routes[N]>) => Promise<Reply<N>> }, {
  get: (_, name) =>
    typeof name === 'string'
      ? async (...args: unknown[]) => {
          const { res, json } = await call(name, args);
          return Object.assign(json ?? {}, { status: res.status });
        }
      : undefined,
});

/** Calls a route that answers with text (an iCalendar file), with the same token and error handling. */
export async function apiText<N extends RouteName>(
  name: N,
  accept: string,
  ...args: Args<Routes[N]>
): Promise<string> {
  return (await call(name, args, accept)).res.text();
}

/** A readable message for any thrown value. */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
