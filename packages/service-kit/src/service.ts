import { EVENT_SUBSCRIBERS, SERVICE_NAMES, serviceUrlVar, type ServiceName } from '@ct/contracts';
import { EventBus, openQueue, type QueueBackend } from '@ct/queue';
import { migrate, openDb, readMigrations, type Db } from '@ct/store';
import type { FastifyInstance } from 'fastify';
import type { Static, TObject } from 'typebox';
import { createBaseApp, type ReadyCheck } from './app.ts';
import { createClients, httpTransport, ServicePools, type ServiceClients } from './clients.ts';
import {
  loadConfigOrExit,
  SEPARATE_PROCESS_RULE,
  STORE_RULE,
  type BaseConfig,
  type ConfigRule,
} from './config.ts';
import type { ServiceContext } from './context.ts';
import { registerRoutes, type Implementation } from './routes.ts';

/** What a service's composition root builds: at least its context, plus its repositories, jobs, clients. */
export interface ServiceDeps<C = BaseConfig> {
  ctx: ServiceContext<C>;
}

/**
 * A service: its name, the schema and migrations it owns, its config, and its one composition root
 * (`deps`), whose result its routes, its extra plugin and its start-up all share.
 */
export interface ServiceModule<
  S extends TObject = TObject,
  D extends ServiceDeps<Static<S>> = ServiceDeps<Static<S>>,
> {
  name: ServiceName;
  /** Postgres schema the service owns (null: it owns no tables). */
  schema: string | null;
  /** Folder of `NNN_name.sql` forward-only migrations. */
  migrationsDir: string | null;
  /** Its config schema, the base variables included (see `withBase`). */
  config: S;
  /**
   * The composition root: builds the service's dependencies once per process (without it: the context
   * alone). Cleanup goes through `ctx.onClose`.
   */
  deps?(ctx: ServiceContext<Static<S>>): D | Promise<D>;
  /** Its implementations of the route table's routes, registered under `/api` and checked at start. */
  routes(deps: D): Implementation[];
  /** Anything else on the service's Fastify scope (e.g. its own metrics). Never listens. */
  plugin?(app: FastifyInstance, deps: D): Promise<void>;
  /** Starts background work (event consumers, sweeps, workers) once the routes are ready. */
  start?(deps: D): Promise<void>;
  /**
   * What must hold before the service takes traffic, beyond its store and queue (its data loaded):
   * `/readyz` answers 503 until each check passes.
   */
  readyChecks?(deps: D): ReadyCheck[];
}

export function defineService<S extends TObject, D extends ServiceDeps<Static<S>> = ServiceDeps<Static<S>>>(
  m: ServiceModule<S, D>,
): ServiceModule<S, D> {
  return m;
}

/**
 * Mounts a module on an app, the same way in both runs: builds its dependencies once, registers its
 * routes (and its plugin) under `/api`, adds its ready checks to `readyChecks` (the list the app's
 * `/readyz` reads), and returns its start-up, to run once the app is ready.
 */
export async function mountService<S extends TObject, D extends ServiceDeps<Static<S>>>(
  app: FastifyInstance,
  m: ServiceModule<S, D>,
  ctx: ServiceContext<Static<S>>,
  readyChecks?: ReadyCheck[],
): Promise<() => Promise<void>> {
  const deps = m.deps ? await m.deps(ctx) : ({ ctx } as D);
  if (m.readyChecks) readyChecks?.push(...m.readyChecks(deps));
  await app.register(
    async (scope) => {
      registerRoutes(scope, ctx, m.routes(deps));
      await m.plugin?.(scope, deps);
    },
    { prefix: '/api' },
  );
  return async () => {
    await m.start?.(deps);
  };
}

/** Service base URLs from config, for HTTP clients. */
export function serviceUrls(c: BaseConfig): Partial<Record<ServiceName, string>> {
  const urls: Partial<Record<ServiceName, string>> = {};
  for (const name of SERVICE_NAMES) {
    const url = c[serviceUrlVar(name)];
    if (url) urls[name] = url;
  }
  return urls;
}

/** Runs a module's migrations. */
export async function migrateModule(
  db: Db,
  m: Pick<ServiceModule, 'schema' | 'migrationsDir'>,
): Promise<string[]> {
  if (!m.schema || !m.migrationsDir) return [];
  return migrate(db, m.schema, readMigrations(m.migrationsDir));
}

/** A stack of cleanup steps run in reverse order. */
export class Closers {
  private readonly fns: Array<() => Promise<void> | void> = [];
  add(fn: () => Promise<void> | void): void {
    this.fns.push(fn);
  }
  async run(log?: { error: (o: object, m: string) => void }): Promise<void> {
    for (const fn of this.fns.splice(0).reverse()) {
      try {
        await fn();
      } catch (err) {
        log?.error({ err }, 'error while closing');
      }
    }
  }
}

export interface Shared {
  db: Db;
  queue: QueueBackend;
  clients: ServiceClients;
  closers: Closers;
}

/** The `service` every line of this process's log carries (pino's base bindings). */
const processService = (app: FastifyInstance): string | undefined =>
  (app.log as unknown as { bindings(): { service?: string } }).bindings().service;

/** Builds a module's context on shared infrastructure. */
export function makeContext<S extends TObject>(
  m: Pick<ServiceModule<S>, 'name'>,
  config: Static<S>,
  shared: Shared,
  app: FastifyInstance,
): ServiceContext<Static<S>> {
  return {
    service: m.name,
    config,
    db: shared.db,
    queue: shared.queue,
    bus: new EventBus(shared.queue, EVENT_SUBSCRIBERS),
    clients: shared.clients,
    // One `service` key a line (strict JSON readers refuse a repeated key): a module in a process of its
    // own logs as that process; one mounted in the embedded gateway adds which module it is.
    log: processService(app) === m.name ? app.log : app.log.child({ module: m.name }),
    onClose: (fn) => shared.closers.add(fn),
  };
}

/** Graceful shutdown on SIGTERM/SIGINT: stop listening, finish in-flight work, close pools; a second signal forces. */
export function onShutdown(
  close: () => Promise<void>,
  log: { info: (m: string) => void; error: (o: object, m: string) => void },
  graceMs = 25_000,
): void {
  let closing = false;
  const handler = (signal: string) => {
    if (closing) {
      log.info(`${signal} received again: stopping now`);
      process.exit(1);
    }
    closing = true;
    log.info(`${signal} received: shutting down`);
    const force = setTimeout(() => {
      log.error({ graceMs }, 'shutdown took too long: stopping now');
      process.exit(1);
    }, graceMs);
    force.unref();
    close().then(
      () => process.exit(0),
      (err: unknown) => {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => handler('SIGTERM'));
  process.on('SIGINT', () => handler('SIGINT'));
}

/** Starts one service as its own process (the distributed run). */
export async function runServiceProcess<S extends TObject, D extends ServiceDeps<Static<S>>>(
  m: ServiceModule<S, D>,
): Promise<FastifyInstance> {
  const rules = [SEPARATE_PROCESS_RULE, STORE_RULE] as ConfigRule<Static<S>>[];
  const config = loadConfigOrExit(m.config, process.env, rules) as Static<S> & BaseConfig;
  // SEPARATE_PROCESS_RULE made sure it is set.
  const token = config.INTERNAL_TOKEN!;
  const closers = new Closers();
  const db = await openDb({
    url: config.DATABASE_URL,
    dataDir: `${config.DATA_DIR}/${m.name}`,
    poolMax: config.DB_POOL_MAX,
    applicationName: m.name,
  });
  closers.add(() => db.close());
  const queue = openQueue({
    url: config.REDIS_URL,
    prefix: config.QUEUE_PREFIX,
    lockDurationMs: config.QUEUE_LOCK_MS,
    drainMs: config.SHUTDOWN_DRAIN_MS,
  });
  closers.add(() => queue.close());
  // The module adds its own checks to this list when it is mounted.
  const readyChecks: ReadyCheck[] = [
    { name: 'store', check: () => db.ping() },
    { name: 'queue', check: () => queue.ping() },
  ];
  const app = createBaseApp({
    name: m.name,
    logLevel: config.LOG_LEVEL,
    logFullUrls: config.LOG_FULL_URLS,
    internalToken: token,
    metricsToken: config.METRICS_TOKEN,
    accessLog: config.ACCESS_LOG,
    readyChecks,
  });
  const applied = await migrateModule(db, m);
  if (applied.length) app.log.info({ applied }, 'migrations applied');
  const pools = new ServicePools(serviceUrls(config));
  closers.add(() => pools.close());
  const clients = createClients(httpTransport(pools), token);
  const ctx = makeContext<S>(m, config, { db, queue, clients, closers }, app);
  const start = await mountService(app, m, ctx, readyChecks);
  await app.ready();
  await start();
  await app.listen({ port: config.PORT, host: config.HOST });
  onShutdown(
    async () => {
      await app.close();
      await closers.run(app.log);
    },
    app.log,
    config.SHUTDOWN_DRAIN_MS + 5000,
  );
  return app;
}
