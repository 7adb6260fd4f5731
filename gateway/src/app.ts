import { randomBytes } from 'node:crypto';
import { runRoleCommand } from '@ct/auth/cli/role-command';
import { serveRoleCommands } from '@ct/auth/cli/role-socket';
import { ROUTES } from '@ct/contracts';
import { openQueue, type QueueBackend } from '@ct/queue';
import {
  Closers,
  ConfigError,
  createBaseApp,
  createClients,
  httpTransport,
  injectTransport,
  serviceUrls,
  ServicePools,
  splitServiceUrls,
  type ReadyCheck,
  type ServiceModule,
} from '@ct/service-kit';
import { openDb, type Db } from '@ct/store';
import type { FastifyInstance } from 'fastify';
import { GATEWAY_RULES, trustProxySetting, type GatewayConfig } from './config.ts';
import ops from './plugins/ops/index.ts';
import authRoutes, { gatewayAuth, refuseDeletedAccounts } from './plugins/auth.ts';
import docs from './plugins/docs.ts';
import rateLimit from './plugins/rate-limit.ts';
import routing, { type Embedded } from './plugins/routing.ts';
import security from './plugins/security.ts';
import web from './plugins/web.ts';

export interface GatewayOptions {
  config: GatewayConfig;
  /** Service modules for the embedded run (defaults to all of them). */
  modules?: ServiceModule[];
  /**
   * Where each embedded module's own settings are read from, once, by the module's schema (default
   * process.env; `config` is the gateway's, parsed from the same place).
   */
  env?: Record<string, string | undefined>;
  /** Use this store / queue instead of opening them from config (tests). */
  db?: Db;
  queue?: QueueBackend;
  logStream?: NodeJS.WritableStream;
}

export interface Gateway {
  app: FastifyInstance;
  /** Stops taking requests, then finishes background work and closes pools. */
  close(): Promise<void>;
}

/** The embedded run's store, queue and modules, opened from config unless the caller hands them in. */
async function openEmbedded(
  config: GatewayConfig,
  opts: GatewayOptions,
  closers: Closers,
): Promise<Embedded> {
  const db =
    opts.db ??
    (await openDb({ url: config.DATABASE_URL, dataDir: config.DATA_DIR, poolMax: config.DB_POOL_MAX }));
  if (!opts.db) closers.add(() => db.close());
  const queue =
    opts.queue ??
    openQueue({
      url: config.REDIS_URL,
      prefix: config.QUEUE_PREFIX,
      lockDurationMs: config.QUEUE_LOCK_MS,
      drainMs: config.SHUTDOWN_DRAIN_MS,
    });
  if (!opts.queue) closers.add(() => queue.close());
  const modules = (opts.modules ?? (await import('./modules.ts')).MODULES).filter(
    (m) => config.RUN_WORKER || m.name !== 'ingestion-worker',
  );
  return { db, queue, closers, modules, env: opts.env ?? process.env };
}

/**
 * The distributed run is ready when every service behind the route table is: one ready replica of a
 * service whose URL variable lists several is enough (calls pass over the others).
 */
function serviceReadyChecks(urls: ReturnType<typeof serviceUrls>): ReadyCheck[] {
  return [...new Set(ROUTES.map((r) => r.service))].map((svc) => {
    const base = urls[svc];
    if (!base) throw new Error(`distributed mode needs a URL for the ${svc} service`);
    const replicas = splitServiceUrls(base);
    return {
      name: svc,
      check: async () => {
        const answers = await Promise.allSettled(
          replicas.map((r) => fetch(`${r}/readyz`, { signal: AbortSignal.timeout(2500) })),
        );
        if (!answers.some((a) => a.status === 'fulfilled' && a.value.ok)) {
          const statuses = answers.map((a) => (a.status === 'fulfilled' ? a.value.status : 'no answer'));
          throw new Error(`${svc} not ready (${statuses.join(', ')})`);
        }
      },
    };
  });
}

/**
 * Builds the gateway from its plugins: security headers, token verification, rate limit, API docs, the
 * route table (the embedded run: every service in-process; the distributed one: a proxy), the operators'
 * queue dashboard and the web app.
 */
export async function buildGateway(opts: GatewayOptions): Promise<Gateway> {
  const { config } = opts;
  const problems = GATEWAY_RULES.flatMap((rule) => rule(config));
  if (problems.length) throw new ConfigError(problems);
  const closers = new Closers();
  // The embedded run signs only calls inside this process, so a key of its own is as good as any.
  const internalToken = config.INTERNAL_TOKEN ?? randomBytes(32).toString('hex');
  const auth = gatewayAuth(config);
  closers.add(auth.close);
  const urls = serviceUrls(config);
  const embedded = config.GATEWAY_MODE === 'embedded' ? await openEmbedded(config, opts, closers) : undefined;

  // Embedded, each service module adds its own checks (its data loaded) when it is mounted.
  const readyChecks: ReadyCheck[] = [
    auth.readyCheck,
    ...(embedded
      ? [
          { name: 'store', check: () => embedded.db.ping() },
          { name: 'queue', check: () => embedded.queue.ping() },
        ]
      : serviceReadyChecks(urls)),
  ];
  const app = createBaseApp({
    name: 'gateway',
    logLevel: config.LOG_LEVEL,
    logFullUrls: config.LOG_FULL_URLS,
    internalToken,
    edge: true,
    trustProxy: trustProxySetting(config.TRUST_PROXY) || false,
    metricsToken: config.METRICS_TOKEN,
    accessLog: config.ACCESS_LOG,
    healthPrefix: '/api',
    readyChecks,
    ...(opts.logStream ? { logStream: opts.logStream } : {}),
    verify: auth.verify,
    requestTimeoutMs: config.REQUEST_TIMEOUT_MS,
  });
  // The embedded store on PGlite is this process's alone: `npm run role` asks it to run the command, on a
  // socket in the data folder that only this user can reach (never with Postgres, nor in production).
  if (
    embedded &&
    !opts.db &&
    !config.DATABASE_URL &&
    config.NODE_ENV !== 'production' &&
    !config.DATA_DIR.startsWith('memory://')
  ) {
    const firebase = {
      projectId: config.FIREBASE_PROJECT_ID,
      emulatorHost: config.FIREBASE_AUTH_EMULATOR_HOST ?? null,
    };
    const server = await serveRoleCommands(
      config.DATA_DIR,
      (args, io) => runRoleCommand(args, io, { db: embedded.db, firebase }),
      app.log,
    );
    if (server) closers.add(server.close);
  }
  // The distributed run: one keep-alive pool per service, shared by the proxy and the gateway's own calls.
  const pools = embedded ? undefined : new ServicePools(urls);
  if (pools) closers.add(() => pools.close());
  const clients = createClients(pools ? httpTransport(pools) : injectTransport(app), internalToken);
  refuseDeletedAccounts(app, auth.deleted, clients, config.DELETED_ACCOUNTS_SYNC_MS);

  await app.register(security, { config });
  await app.register(rateLimit, { config });
  await app.register(docs, { config });
  await app.register(authRoutes);
  await app.register(
    routing,
    embedded ? { internalToken, embedded, clients, readyChecks } : { internalToken, pools: pools! },
  );
  const opsSessionSecret = config.OPS_SESSION_SECRET ?? randomBytes(32).toString('hex');
  await app.register(ops, {
    config,
    clients,
    opsSessionSecret,
    accountRefusal: auth.accountRefusal,
    queue: embedded?.queue,
  });
  await app.register(web, { config });

  return {
    app,
    async close() {
      await app.close();
      await closers.run(app.log);
    },
  };
}
