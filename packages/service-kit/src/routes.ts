import {
  ROUTES,
  routeKey,
  type Access,
  type RouteBody,
  type RouteDef,
  type RouteParams,
  type RouteQuery,
  type RouteReply,
} from '@ct/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerHookHandler } from 'fastify';
import { checkAccess, requireUser } from './access.ts';
import type { ServiceClients } from './clients.ts';
import type { ServiceContext } from './context.ts';

export type TypedRequest<R extends RouteDef> = FastifyRequest<{
  Querystring: RouteQuery<R>;
  Body: RouteBody<R>;
  Params: RouteParams<R>;
}>;

export type Handler<R extends RouteDef> = (
  request: TypedRequest<R>,
  reply: FastifyReply,
) => Promise<RouteReply<R> | void>;

export interface Implementation {
  def: RouteDef;
  handler: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
}

/** Pairs a route of the table with its handler, typed from the route's schemas. */
export function implement<R extends RouteDef>(def: R, handler: NoInfer<Handler<R>>): Implementation {
  return { def, handler: handler as Implementation['handler'] };
}

/**
 * A route's access check as a callback-style hook: the checks of `public` and `user` routes need no I/O,
 * so they run without a promise (this hook is on every request); `admin` looks the role up.
 */
export function accessHook(access: Access, clients: ServiceClients): preHandlerHookHandler {
  if (access === 'admin' || access === 'internal')
    return (request, _reply, done) => {
      checkAccess(access, request, clients).then(() => done(), done);
    };
  return (request, _reply, done) => {
    try {
      if (access === 'user') requireUser(request);
    } catch (err) {
      return done(err as Error);
    }
    done();
  };
}

/**
 * Registers a service's implementations. Refuses to start when a route the table gives this service has
 * no handler or two, or a handler is for a route the table does not give it.
 */
export function registerRoutes(
  app: FastifyInstance,
  ctx: ServiceContext<unknown>,
  impls: Implementation[],
): void {
  const mine = ROUTES.filter((r) => r.service === ctx.service).map(routeKey);
  const given = impls.map((i) => routeKey(i.def));
  const missing = mine.filter((k) => !given.includes(k));
  const twice = given.filter((k, i) => given.indexOf(k) !== i);
  const foreign = impls.filter((i) => i.def.service !== ctx.service || !mine.includes(routeKey(i.def)));
  if (missing.length || twice.length || foreign.length) {
    throw new Error(
      `${ctx.service}: route table mismatch` +
        (missing.length ? `; no handler for ${missing.join(', ')}` : '') +
        (twice.length ? `; two handlers for ${twice.join(', ')}` : '') +
        (foreign.length ? `; not this service's: ${foreign.map((i) => routeKey(i.def)).join(', ')}` : ''),
    );
  }
  for (const { def, handler } of impls) {
    app.route({
      method: def.method,
      url: def.path,
      schema: { ...def.schema, summary: def.summary, tags: [def.service], hide: def.access === 'internal' },
      config: { access: def.access, service: def.service },
      // From outside, an internal route must not exist at all, not even to say its input is malformed.
      ...(def.access === 'internal'
        ? { onRequest: async (request: FastifyRequest) => checkAccess('internal', request, ctx.clients) }
        : {}),
      preHandler: accessHook(def.access, ctx.clients),
      handler,
    });
  }
}
