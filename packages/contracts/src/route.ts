import type { Static, TSchema } from 'typebox';

/** Who may call a route. `internal` routes are service-to-service only and never reachable from outside. */
export type Access = 'public' | 'user' | 'admin' | 'internal';

/**
 * THE list of services: each is a workspace `services/<name>`, an embedded module of the gateway, and in the
 * distributed run a process on `port` that the others reach at the variable `serviceUrlVar(name)`. Everything
 * else (config schema, gateway modules, scripts/lib/stack.ts, compose, k8s) is derived from it or checked
 * against it by tests/ops.
 */
export const SERVICES = [
  { name: 'auth', port: 8081 },
  { name: 'colleges', port: 8082 },
  { name: 'user-data', port: 8083 },
  { name: 'essays', port: 8084 },
  { name: 'admin', port: 8085 },
  { name: 'ingestion-worker', port: 8086 },
] as const;
export type ServiceName = (typeof SERVICES)[number]['name'];
export const SERVICE_NAMES: readonly ServiceName[] = SERVICES.map((s) => s.name);

type Snake<S extends string> = S extends `${infer A}-${infer B}` ? `${A}_${Snake<B>}` : S;
/** The variable holding a service's base URL in the distributed run: `user-data` → USER_DATA_SERVICE_URL. */
export type ServiceUrlVar<N extends ServiceName = ServiceName> = `${Uppercase<Snake<N>>}_SERVICE_URL`;
export function serviceUrlVar<N extends ServiceName>(name: N): ServiceUrlVar<N> {
  return `${name.toUpperCase().replaceAll('-', '_')}_SERVICE_URL` as ServiceUrlVar<N>;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteSchema {
  querystring?: TSchema;
  body?: TSchema;
  params?: TSchema;
  response?: Record<number, TSchema>;
}

export interface RouteDef<S extends RouteSchema = RouteSchema> {
  method: HttpMethod;
  /** Path under `/api`, e.g. `/search-college`. */
  path: string;
  service: ServiceName;
  access: Access;
  summary: string;
  schema: S;
  /**
   * The reply is streamed (an export): the distributed gateway passes it on as it comes, with
   * backpressure, instead of reading it whole first.
   */
  stream?: true;
}

/** Declares a route once; services implement it, the gateway routes and guards it, the web client calls it. */
export function defineRoute<const S extends RouteSchema, const M extends HttpMethod, const P extends string>(
  def: RouteDef<S> & { method: M; path: P },
): RouteDef<S> & { method: M; path: P } {
  return def;
}

type StaticOr<T, Fallback> = T extends TSchema ? Static<T> : Fallback;
export type RouteQuery<R extends RouteDef> = StaticOr<R['schema']['querystring'], Record<string, never>>;
export type RouteBody<R extends RouteDef> = StaticOr<R['schema']['body'], undefined>;
export type RouteParams<R extends RouteDef> = StaticOr<R['schema']['params'], Record<string, never>>;
type ResponseOf<R extends RouteDef, C extends number> =
  R['schema']['response'] extends Record<number, TSchema>
    ? C extends keyof R['schema']['response']
      ? Static<R['schema']['response'][C]>
      : never
    : never;
/** The success reply of a route: any of its 200, 201 and 202 shapes. */
export type RouteReply<R extends RouteDef> =
  R['schema']['response'] extends Record<number, TSchema>
    ? ResponseOf<R, 200> | ResponseOf<R, 201> | ResponseOf<R, 202>
    : unknown;

/** `GET /search-college` style key used in handler maps and logs. */
export function routeKey(r: Pick<RouteDef, 'method' | 'path'>): string {
  return `${r.method} ${r.path}`;
}
