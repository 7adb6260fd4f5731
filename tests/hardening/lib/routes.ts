import { ERROR_STATUS, ROUTES, routeKey, type RouteDef } from '@ct/contracts';
import type { FastifyInstance } from 'fastify';
import { options, sample, toQuery, type JsonSchema } from './schema.ts';

/** Every route of the table, read at test time: a route added tomorrow is swept tomorrow. */
export const ALL_ROUTES: readonly RouteDef[] = ROUTES;
export const EXTERNAL_ROUTES = ROUTES.filter((r) => r.access !== 'internal');
export const SIGNED_IN_ROUTES = ROUTES.filter((r) => r.access === 'user' || r.access === 'admin');
export const ADMIN_ROUTES = ROUTES.filter((r) => r.access === 'admin');
export const PUBLIC_ROUTES = ROUTES.filter((r) => r.access === 'public');
export const INTERNAL_ROUTES = ROUTES.filter((r) => r.access === 'internal');

export const label = (r: RouteDef) => routeKey(r);

/** The schema of the part a route reads its input from (query for GET, JSON body otherwise). */
export function inputSchema(r: RouteDef): { part: 'query' | 'body'; schema: JsonSchema } | null {
  if (r.schema.body) return { part: 'body', schema: r.schema.body as JsonSchema };
  if (r.schema.querystring) return { part: 'query', schema: r.schema.querystring as JsonSchema };
  return null;
}

/** True when the route takes a `userId` (the spec's calls send one; the token must decide). */
export function takesUserId(r: RouteDef): boolean {
  const input = inputSchema(r);
  if (!input) return false;
  return options(input.schema).some((o) => o.properties && 'userId' in o.properties);
}

export interface ApiRequest {
  method: RouteDef['method'];
  /** Path under /api with params filled in, without the query string. */
  path: string;
  query?: Record<string, string | string[]>;
  body?: unknown;
  /** Sent as is, instead of `body`, with the given content type. */
  raw?: { payload: string | Buffer; contentType?: string };
  headers?: Record<string, string>;
}

export interface ApiResponse {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  text: string;
  json: Record<string, unknown> | null;
}

/** Fills `:param` segments from hints. */
export function fillPath(r: RouteDef, hints: Record<string, unknown>): string {
  return `/api${r.path.replace(/:(\w+)/g, (_m, p: string) => encodeURIComponent(String(hints[p] ?? 'x')))}`;
}

/** A request the route's schema accepts, built from hints (real names, the caller's uid). */
export function validRequest(r: RouteDef, hints: Record<string, unknown>): ApiRequest {
  const req: ApiRequest = { method: r.method, path: fillPath(r, hints) };
  if (r.schema.querystring) req.query = toQuery(sample(r.schema.querystring as JsonSchema, hints));
  if (r.schema.body) req.body = sample(r.schema.body as JsonSchema, hints);
  return req;
}

export function urlOf(req: ApiRequest): string {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(req.query ?? {})) {
    if (Array.isArray(v)) for (const x of v) qs.append(k, x);
    else qs.append(k, v);
  }
  const s = qs.toString();
  return s ? `${req.path}?${s}` : req.path;
}

/** Sends a request through the gateway in-process (the full hook chain, no socket). */
export async function send(app: FastifyInstance, req: ApiRequest, token?: string): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...(token ? { authorization: `Bearer ${token}` } : {}) };
  let payload: string | Buffer | undefined;
  if (req.raw) {
    payload = req.raw.payload;
    if (req.raw.contentType) headers['content-type'] = req.raw.contentType;
  } else if (req.body !== undefined) {
    payload = JSON.stringify(req.body);
    headers['content-type'] = 'application/json';
  }
  Object.assign(headers, req.headers);
  const res = await app.inject({
    method: req.method,
    url: urlOf(req),
    headers,
    ...(payload !== undefined ? { payload } : {}),
  });
  let json: Record<string, unknown> | null = null;
  try {
    const parsed: unknown = JSON.parse(res.body);
    if (parsed && typeof parsed === 'object') json = parsed as Record<string, unknown>;
  } catch {
    json = null;
  }
  return { status: res.statusCode, headers: res.headers, text: res.body, json };
}

/** Sends over real HTTP (for limits that only a socket has: header size, URL length). */
export async function sendHttp(baseUrl: string, req: ApiRequest, token?: string): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...(token ? { authorization: `Bearer ${token}` } : {}) };
  let body: string | Buffer | undefined;
  if (req.raw) {
    body = req.raw.payload;
    if (req.raw.contentType) headers['content-type'] = req.raw.contentType;
  } else if (req.body !== undefined) {
    body = JSON.stringify(req.body);
    headers['content-type'] = 'application/json';
  }
  Object.assign(headers, req.headers);
  const res = await fetch(`${baseUrl}${urlOf(req)}`, {
    method: req.method,
    headers,
    ...(body !== undefined ? { body: new Uint8Array(Buffer.from(body)) } : {}),
  });
  const text = await res.text();
  let json: Record<string, unknown> | null = null;
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object') json = parsed as Record<string, unknown>;
  } catch {
    json = null;
  }
  return { status: res.status, headers: Object.fromEntries(res.headers), text, json };
}

// Things an error message must never carry: stack frames, file paths, SQL, driver internals.
const LEAKS = [
  /\bat [\w.<>]+ \(.*:\d+:\d+\)/,
  /node_modules|\/work\/|\/src\/|\.ts:\d+/,
  /\b(SELECT|INSERT|UPDATE|DELETE)\b.+\b(FROM|INTO|SET)\b/,
  /syntax error at or near|relation ".+" does not exist|violates .+ constraint|invalid byte sequence/i,
  /ECONNREFUSED|ETIMEDOUT|TypeError|ReferenceError|RangeError|Cannot read propert/,
];

/**
 * Why an error reply is not the clear `{success:false, message, code}` a student or client can act on;
 * an empty list when it is.
 */
export function unclearError(res: ApiResponse, sentText = ''): string[] {
  const problems: string[] = [];
  const ct = String(res.headers['content-type'] ?? '');
  if (!ct.includes('application/json')) problems.push(`content-type is "${ct}", not JSON`);
  const b = res.json;
  if (!b) return [...problems, `body is not a JSON object: ${res.text.slice(0, 120)}`];
  if (b.success !== false) problems.push('success is not false');
  const msg = b.message;
  if (typeof msg !== 'string') problems.push('no message');
  else {
    if (msg.trim().length < 5) problems.push(`message too short: "${msg}"`);
    if (msg.length > 500) problems.push(`message too long (${msg.length} chars): echoes input?`);
    // Quoting the caller's own input back is fine; anything else that looks internal is not.
    const own = msg.replace(/"[^"]*"/g, (q) => (sentText.includes(q.slice(1, -1)) ? '""' : q));
    for (const re of LEAKS)
      if (re.test(own)) problems.push(`message leaks internals: "${msg.slice(0, 160)}"`);
  }
  const code = b.code;
  if (typeof code !== 'string' || !(code in ERROR_STATUS)) problems.push(`unknown code ${String(code)}`);
  else if (
    ERROR_STATUS[code as keyof typeof ERROR_STATUS] !== res.status &&
    // An unsupported content type is a malformed request that HTTP gives its own status.
    !(code === 'VALIDATION_ERROR' && res.status === 415)
  )
    problems.push(`code ${code} does not match status ${res.status}`);
  return problems;
}
