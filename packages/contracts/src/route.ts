import type { Static, TSchema } from 'typebox';

/** Who may call a route. `internal` routes are service-to-service only and never reachable from outside. */
export type Access = 'public' | 'user' | 'admin' | 'internal';

export const SERVICE_NAMES = [
  'auth',
  'colleges',
  'user-data',
  'essays',
  'admin',
  'ingestion-worker',
] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

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
