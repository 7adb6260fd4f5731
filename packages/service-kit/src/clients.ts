import type {
  ErrorCode,
  RouteBody,
  RouteDef,
  RouteParams,
  RouteQuery,
  RouteReply,
  ServiceName,
} from '@ct/contracts';
import type { FastifyInstance } from 'fastify';
import type { Readable } from 'node:stream';
import { Pool, type Dispatcher } from 'undici';
import type { AuthContext } from './context.ts';
import { AppError, UNAVAILABLE_MESSAGE } from './errors.ts';
import { internalKey, signInternalCall } from './internal-auth.ts';

export interface CallOptions<R extends RouteDef> {
  query?: Partial<RouteQuery<R>> | undefined;
  body?: RouteBody<R> | undefined;
  params?: RouteParams<R> | undefined;
  /** Act on behalf of this user (the callee sees the same identity). */
  auth?: AuthContext | null | undefined;
  /**
   * The id of the request (or job) this call is made for, sent as `x-request-id`: one id then follows a
   * user's action through every service into jobs. Passed explicitly; an AsyncLocalStorage carrying it
   * turned on promise hooks for every promise of the process (docs/performance.md, round 1 of 2026-11-25).
   */
  requestId?: string | undefined;
}

/** Typed calls to another service's routes, from the route table. */
export interface ServiceClients {
  call<R extends RouteDef>(route: R, opts?: CallOptions<R>): Promise<RouteReply<R>>;
}

export interface RawResponse {
  statusCode: number;
  body: string;
  /** The service's response headers that a proxy passes on (see PASSED_HEADERS). */
  headers?: Record<string, string>;
}

/** Headers a service sets that must reach the client through the gateway (e.g. a text/calendar feed). */
export const PASSED_HEADERS = [
  'content-type',
  'cache-control',
  'content-disposition',
  'x-robots-tag',
] as const;
export type Transport = (
  service: ServiceName,
  req: { method: string; url: string; headers: Record<string, string>; body?: string },
) => Promise<RawResponse>;

/** A path with `:name` parameters, made into a function that fills them (each encoded as one segment). */
export type PathBuilder = (params?: Record<string, unknown>) => string;

/** Reads a route's path once, so filling it on every request needs no regular expression. */
export function compilePath(path: string): PathBuilder {
  const names: string[] = [];
  const texts: string[] = [];
  let last = 0;
  for (const m of path.matchAll(/:([A-Za-z0-9_]+)/g)) {
    texts.push(path.slice(last, m.index));
    names.push(m[1]!);
    last = m.index + m[0].length;
  }
  if (!names.length) return () => path;
  texts.push(path.slice(last));
  return (params = {}) => {
    let s = texts[0]!;
    for (let i = 0; i < names.length; i++)
      s += encodeURIComponent(String(params[names[i]!] ?? '')) + texts[i + 1]!;
    return s;
  };
}

/** Paths of the route table, compiled on first use (a finite set). */
const compiledPaths = new Map<string, PathBuilder>();

/** Fills `:name` path parameters. */
export function buildPath(path: string, params: Record<string, unknown> = {}): string {
  let build = compiledPaths.get(path);
  if (!build) compiledPaths.set(path, (build = compilePath(path)));
  return build(params);
}

export function buildQuery(query: Record<string, unknown> = {}): string {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null) qs.set(k, String(v));
  const s = qs.toString();
  return s ? `?${s}` : '';
}

/**
 * Clients over any transport: in-process inject (embedded run) or HTTP (distributed run). Every call is
 * signed for its method and URL with a key derived from the internal token.
 */
export function createClients(transport: Transport, internalToken: string): ServiceClients {
  const key = internalKey(internalToken);
  return {
    async call(route, opts = {}) {
      const url = `/api${buildPath(route.path, opts.params as Record<string, unknown>)}${buildQuery(opts.query as Record<string, unknown>)}`;
      const headers = signInternalCall(key, { method: route.method, url, auth: opts.auth ?? null });
      if (opts.requestId) headers['x-request-id'] = opts.requestId;
      let body: string | undefined;
      if (opts.body !== undefined) {
        body = JSON.stringify(opts.body);
        headers['content-type'] = 'application/json';
      }
      let res: RawResponse;
      try {
        res = await transport(route.service, { method: route.method, url, headers, body });
      } catch {
        throw new AppError('DEPENDENCY_UNAVAILABLE', UNAVAILABLE_MESSAGE);
      }
      let json: unknown;
      try {
        json = res.body ? JSON.parse(res.body) : undefined;
      } catch {
        json = undefined;
      }
      if (res.statusCode >= 200 && res.statusCode < 300) return json as never;
      const err = (json ?? {}) as { message?: string; code?: string };
      if (res.statusCode >= 500) throw new AppError('DEPENDENCY_UNAVAILABLE', UNAVAILABLE_MESSAGE);
      throw new AppError(
        (err.code as ErrorCode) ?? 'INTERNAL',
        err.message ?? `HTTP ${res.statusCode}`,
        res.statusCode,
      );
    },
  };
}

/** What a transport sends a service's requests through: one undici pool, or a set of replicas. */
interface Requester {
  request(opts: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData>;
  close(): Promise<void>;
}

/** One service reached over HTTP: its keep-alive pool(s) and the path its base URL adds, both made once. */
interface ServiceEndpoint {
  pool: Requester;
  /** The base URL's path without a trailing slash ('' for `http://host:port`; a replica set adds its own). */
  prefix: string;
}

/** Errors of a request that never reached the replica: it is safe to send it to another one. */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'UND_ERR_CONNECT_TIMEOUT', 'EHOSTUNREACH', 'ENETUNREACH']);
/** Errors of a replica that went away with the request on its socket: it may have been applied. */
const CUT_OFF = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);

/** How long a replica that refused a connection, or dropped one, is passed over. */
export const REPLICA_DOWN_MS = 2_000;

/**
 * Several replicas of one service behind one endpoint (`USER_DATA_SERVICE_URL=http://a:8083,http://b:8083`):
 * requests go round robin; a replica that refuses connections or drops one is passed over for
 * `downMs`; a request that could not connect is sent to the next replica (it never reached the first).
 * A request cut off after it was sent is not sent again: it may have been applied, and only its caller
 * knows whether it may be repeated (the client's Idempotency-Key, or a read). With every replica down,
 * each is still tried, in turn, rather than failing without a try.
 */
export class ReplicaSet implements Requester {
  private readonly replicas: { pool: Pool; prefix: string; downUntil: number }[];
  private next = 0;

  constructor(
    urls: readonly URL[],
    private readonly downMs = REPLICA_DOWN_MS,
  ) {
    this.replicas = urls.map((u) => ({
      pool: new Pool(u.origin),
      prefix: u.pathname.replace(/\/+$/, ''),
      downUntil: 0,
    }));
  }

  async request(opts: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData> {
    const n = this.replicas.length;
    const start = this.next;
    this.next = (start + 1) % n;
    const now = Date.now();
    // Up replicas first, from the round-robin position; those passed over after, as a last resort.
    const order: number[] = [];
    for (let k = 0; k < n; k++)
      if (this.replicas[(start + k) % n]!.downUntil <= now) order.push((start + k) % n);
    for (let k = 0; k < n; k++)
      if (this.replicas[(start + k) % n]!.downUntil > now) order.push((start + k) % n);
    const path = opts.path;
    let last: unknown;
    for (const i of order) {
      const r = this.replicas[i]!;
      try {
        const res = await r.pool.request({ ...opts, path: r.prefix + path });
        r.downUntil = 0;
        return res;
      } catch (err) {
        const code = (err as { code?: string }).code ?? '';
        if (NOT_CONNECTED.has(code) || CUT_OFF.has(code)) r.downUntil = Date.now() + this.downMs;
        if (!NOT_CONNECTED.has(code)) throw err;
        last = err;
      }
    }
    throw last;
  }

  async close(): Promise<void> {
    await Promise.all(this.replicas.map((r) => r.pool.close()));
  }
}

/**
 * One undici keep-alive pool per service, each base URL parsed once. Calls through undici's `request(url)`
 * went through the global dispatcher, which parsed the URL and looked its origin up on every call (with
 * the rest of fetch's copy of undici, 12 % of the distributed gateway's busy time in a profile). A URL
 * variable may list several replicas, comma-separated: they get a `ReplicaSet`; one URL gets its pool
 * itself, so the common case costs no more per request than before.
 */
export class ServicePools {
  private readonly endpoints = new Map<ServiceName, ServiceEndpoint>();

  constructor(private readonly urls: Partial<Record<ServiceName, string>>) {}

  /** The service's endpoint, made on first use; throws when no URL is configured for it. */
  endpoint(service: ServiceName): ServiceEndpoint {
    let e = this.endpoints.get(service);
    if (e) return e;
    const base = this.urls[service];
    if (!base) throw new Error(`no URL configured for service ${service}`);
    const urls = splitServiceUrls(base).map((x) => new URL(x));
    if (urls.length === 1) {
      const u = urls[0]!;
      e = { pool: new Pool(u.origin), prefix: u.pathname.replace(/\/+$/, '') };
    } else {
      e = { pool: new ReplicaSet(urls), prefix: '' };
    }
    this.endpoints.set(service, e);
    return e;
  }

  /** Closes every pool (waits for calls under way). */
  async close(): Promise<void> {
    const pools = [...this.endpoints.values()].map((e) => e.pool);
    this.endpoints.clear();
    await Promise.all(pools.map((p) => p.close()));
  }
}

/** The base URLs of a service URL variable: one, or several replicas separated by commas. */
export function splitServiceUrls(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

type ServiceTarget = Partial<Record<ServiceName, string>> | ServicePools;
const poolsOf = (to: ServiceTarget) => (to instanceof ServicePools ? to : new ServicePools(to));

function passedHeaders(res: Dispatcher.ResponseData): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const h of PASSED_HEADERS) {
    const v = res.headers[h];
    if (typeof v === 'string') headers[h] = v;
  }
  return headers;
}

/**
 * HTTP transport to services (base URLs, or pools shared with other transports) over a keep-alive undici
 * pool per service, with a timeout for the answer to start and for each pause in it. Not `fetch`: its
 * web streams cost a gateway that forwards every request about a quarter of its CPU (docs/performance.md).
 */
export function httpTransport(to: ServiceTarget, timeoutMs = 10_000): Transport {
  const pools = poolsOf(to);
  return async (service, req) => {
    const { pool, prefix } = pools.endpoint(service);
    const res = await pool.request({
      path: prefix + req.url,
      method: req.method as Dispatcher.HttpMethod,
      headers: req.headers,
      body: req.body,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    return { statusCode: res.statusCode, body: await res.body.text(), headers: passedHeaders(res) };
  };
}

/** A reply whose body is passed on as it comes (a streamed route: `stream` in the route table). */
export interface StreamedResponse {
  statusCode: number;
  body: Readable;
  headers: Record<string, string>;
}

/**
 * HTTP to a service for a streamed route: the body is handed over unread, so the caller pipes it on and
 * the service only produces what the client takes (backpressure through both sockets). The answer must
 * start within `timeoutMs`; a pause in it may last `pauseMs` (a slow download pauses the service too).
 */
export function httpStreamTransport(to: ServiceTarget, timeoutMs = 10_000, pauseMs = 120_000) {
  const pools = poolsOf(to);
  return async (
    service: ServiceName,
    req: { method: string; url: string; headers: Record<string, string> },
  ): Promise<StreamedResponse> => {
    const { pool, prefix } = pools.endpoint(service);
    const res = await pool.request({
      path: prefix + req.url,
      method: req.method as Dispatcher.HttpMethod,
      headers: req.headers,
      headersTimeout: timeoutMs,
      bodyTimeout: pauseMs,
    });
    return { statusCode: res.statusCode, body: res.body, headers: passedHeaders(res) };
  };
}

/** In-process transport (the embedded run): every service is a route of `app`, reached by `inject`. */
export function injectTransport(app: FastifyInstance): Transport {
  return async (_service, req) => {
    const res = await app.inject({
      method: req.method as 'GET',
      url: req.url,
      headers: req.headers,
      ...(req.body !== undefined ? { payload: req.body } : {}),
    });
    return { statusCode: res.statusCode, body: res.body };
  };
}
