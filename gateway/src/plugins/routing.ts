import { ROUTES } from '@ct/contracts';
import type { QueueBackend } from '@ct/queue';
import {
  addRequestStep,
  AppError,
  compilePath,
  KIT_MSG,
  UNAVAILABLE_MESSAGE,
  Closers,
  ConfigError,
  httpStreamTransport,
  httpTransport,
  internalKey,
  makeContext,
  migrateModule,
  mountService,
  parseConfig,
  requireUser,
  signInternalCall,
  type PathBuilder,
  type ReadyCheck,
  type ServicePools,
  type ServiceClients,
  type ServiceModule,
} from '@ct/service-kit';
import type { Db } from '@ct/store';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Static, TObject } from 'typebox';

/** The embedded run: what its service modules share. */
export interface Embedded {
  db: Db;
  queue: QueueBackend;
  closers: Closers;
  modules: ServiceModule[];
  /** Where each module's own settings are read from, once, by the module's schema. */
  env: Record<string, string | undefined>;
}

export type RoutingOptions = { internalToken: string } & (
  | {
      embedded: Embedded;
      clients: ServiceClients;
      /** The gateway's `/readyz` checks: each module adds its own. */
      readyChecks: ReadyCheck[];
    }
  | { embedded?: undefined; pools: ServicePools }
);

/**
 * The route table at /api: in the embedded run every service module is registered in this process; in the
 * distributed run each public route is checked at the edge and forwarded to its service.
 */
export default fp<RoutingOptions>(async (app, opts) => {
  refuseAmbiguousPaths(app);
  if (opts.embedded) await mountModules(app, opts.embedded, opts.clients, opts.readyChecks);
  else registerProxy(app, opts.pools, opts.internalToken);
});

/**
 * A path the gateway and a service could read differently: a backslash, a dot segment, an empty segment,
 * or an encoded slash, backslash or dot (`%2F`, `%5C`, `%2E`, also double-encoded as `%25...`). URL
 * parsers downstream resolve these (`/api/calendar/..\internal/...` becomes `/api/internal/...`), so the
 * route checked here would not be the one reached.
 */
const AMBIGUOUS_PATH = /\\|%(25)*(2f|5c|2e)|\/\.{1,2}(\/|$)|\/\//i;

/** True when a request's path (before `?`) is ambiguous: refused before anything routes or forwards it. */
export function ambiguousPath(url: string): boolean {
  const q = url.indexOf('?');
  return AMBIGUOUS_PATH.test(q < 0 ? url : url.slice(0, q));
}

/**
 * Every request whose path could mean two routes is answered 400 before any handler runs, in both runs
 * (the distributed run then forwards only paths built from the route table).
 */
function refuseAmbiguousPaths(app: FastifyInstance): void {
  // A step of the app's one onRequest hook (service-kit's request steps): on every request.
  addRequestStep(app, (request) =>
    ambiguousPath(request.url) ? new AppError('VALIDATION_ERROR', KIT_MSG.badUrl, 400) : undefined,
  );
}

/**
 * Each embedded module's settings, parsed by its own schema once, at start (as its own process would);
 * every module's problems are reported together.
 */
function moduleConfigs(
  modules: ServiceModule[],
  env: Record<string, string | undefined>,
): Map<ServiceModule, Static<TObject>> {
  const configs = new Map<ServiceModule, Static<TObject>>();
  const problems: string[] = [];
  for (const m of modules) {
    try {
      configs.set(m, parseConfig(m.config, env));
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      problems.push(...err.problems.map((p) => `${m.name}: ${p}`));
    }
  }
  if (problems.length) throw new ConfigError([...new Set(problems)]);
  return configs;
}

async function mountModules(
  app: FastifyInstance,
  e: Embedded,
  clients: ServiceClients,
  readyChecks: ReadyCheck[],
): Promise<void> {
  for (const m of e.modules) {
    const applied = await migrateModule(e.db, m);
    if (applied.length) app.log.info({ module: m.name, applied }, 'migrations applied');
  }
  const shared = { db: e.db, queue: e.queue, clients, closers: e.closers };
  const configs = moduleConfigs(e.modules, e.env);
  const starts: Array<() => Promise<void>> = [];
  for (const m of e.modules)
    starts.push(await mountService(app, m, makeContext(m, configs.get(m)!, shared, app), readyChecks));
  app.addHook('onReady', async () => {
    for (const start of starts) await start();
  });
  app.log.debug({ modules: e.modules.map((m) => m.name) }, 'gateway built');
}

/**
 * The URL a service receives: the route table's path with this request's parameters, each encoded as one
 * segment, and the query as sent; never the raw URL, so what was checked is what is reached. The path is
 * compiled once per route (`compilePath`), not matched with a regular expression per request.
 */
function forwardedUrl(path: PathBuilder, request: FastifyRequest): string {
  const url = request.url;
  const q = url.indexOf('?');
  const filled = path(request.params as Record<string, unknown>);
  return q < 0 ? filled : filled + url.slice(q);
}

function registerProxy(app: FastifyInstance, pools: ServicePools, internalToken: string): void {
  const transport = httpTransport(pools, 30_000);
  const streamed = httpStreamTransport(pools, 30_000);
  const key = internalKey(internalToken);
  for (const def of ROUTES) {
    if (def.access === 'internal') continue;
    const path = compilePath(`/api${def.path}`);
    app.route({
      method: def.method,
      url: `/api${def.path}`,
      schema: { ...def.schema, summary: def.summary, tags: [def.service] },
      config: { access: def.access, service: def.service },
      // Callback style (on every request): signed in for all but public routes; the service checks the rest.
      preHandler: (request, _reply, done) => {
        try {
          if (def.access !== 'public') requireUser(request);
        } catch (err) {
          return done(err as Error);
        }
        done();
      },
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const url = forwardedUrl(path, request);
        const headers: Record<string, string> = {
          ...signInternalCall(key, { method: request.method, url, auth: request.auth }),
          'x-request-id': request.id,
        };
        // A queued write's id (user-data applies a write sent twice once).
        const writeId = request.headers['idempotency-key'];
        if (typeof writeId === 'string') headers['idempotency-key'] = writeId;
        let body: string | undefined;
        if (request.body !== undefined && request.method !== 'GET') {
          body = JSON.stringify(request.body);
          headers['content-type'] = 'application/json';
        }
        if (def.stream)
          return forwardStream(request, reply, () =>
            streamed(def.service, { method: request.method, url, headers }),
          );
        let res;
        try {
          res = await transport(def.service, { method: request.method, url, headers, body });
        } catch (err) {
          request.log.error({ err, target: def.service }, 'service unreachable');
          throw new AppError('DEPENDENCY_UNAVAILABLE', UNAVAILABLE_MESSAGE);
        }
        // JSON unless the service said otherwise (the calendar feed is text/calendar).
        reply.status(res.statusCode).type('application/json; charset=utf-8');
        for (const [h, v] of Object.entries(res.headers ?? {})) reply.header(h, v);
        return reply.send(res.body);
      },
    });
  }
}

/**
 * A streamed route (an export): the service's body is piped to the client as it comes, never read whole
 * here; the client's pace holds the service back (backpressure), and a client gone cuts the service's
 * answer short.
 */
async function forwardStream(
  request: FastifyRequest,
  reply: FastifyReply,
  call: () => ReturnType<ReturnType<typeof httpStreamTransport>>,
): Promise<FastifyReply> {
  let res;
  try {
    res = await call();
  } catch (err) {
    request.log.error({ err, target: request.routeOptions.config.service }, 'service unreachable');
    throw new AppError('DEPENDENCY_UNAVAILABLE', UNAVAILABLE_MESSAGE);
  }
  reply.status(res.statusCode).type('application/json; charset=utf-8');
  for (const [h, v] of Object.entries(res.headers)) reply.header(h, v);
  res.body.once('error', (err) => request.log.error({ err }, 'streamed answer cut short'));
  return reply.send(res.body);
}
