import { randomBytes } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { ROUTES, type PublicConfig, type ServiceName } from '@ct/contracts';
import { openQueue, type QueueBackend } from '@ct/queue';
import {
  AppError,
  UNAVAILABLE_MESSAGE,
  Closers,
  ConfigError,
  createBaseApp,
  createClients,
  httpTransport,
  internalKey,
  makeContext,
  migrateModule,
  parseConfig,
  requireUser,
  serviceUrls,
  signInternalCall,
  type ReadyCheck,
  type ServiceModule,
  type Transport,
} from '@ct/service-kit';
import { openDb, type Db } from '@ct/store';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Static, TObject } from 'typebox';
import { TokenVerifier } from './auth/verifier.ts';
import { registerOps } from './ops/index.ts';
import { installSecurityHeaders } from './security-headers.ts';
import { GATEWAY_RULES, trustProxySetting, type GatewayConfig } from './config.ts';
import { serveWeb } from './web.ts';

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

function publicConfig(c: GatewayConfig): PublicConfig {
  const emulatorUrl =
    c.FIREBASE_AUTH_EMULATOR_URL ??
    (c.FIREBASE_AUTH_EMULATOR_HOST ? `http://${c.FIREBASE_AUTH_EMULATOR_HOST}` : null);
  return {
    productName: c.PRODUCT_NAME,
    firebase: {
      apiKey: c.FIREBASE_API_KEY,
      authDomain: c.FIREBASE_AUTH_DOMAIN ?? `${c.FIREBASE_PROJECT_ID}.firebaseapp.com`,
      projectId: c.FIREBASE_PROJECT_ID,
      emulatorUrl,
    },
    supportEmail: c.SUPPORT_EMAIL,
    faqEmail: c.FAQ_EMAIL,
    donateUrl: c.DONATE_URL,
    builderUrl: c.BUILDER_URL,
  };
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

/** Builds the gateway: the embedded run (every service in-process) or the distributed one (proxy). */
export async function buildGateway(opts: GatewayOptions): Promise<Gateway> {
  const { config } = opts;
  const problems = GATEWAY_RULES.flatMap((rule) => rule(config));
  if (problems.length) throw new ConfigError(problems);
  const closers = new Closers();
  // The embedded run signs only calls inside this process, so a key of its own is as good as any.
  const internalToken = config.INTERNAL_TOKEN ?? randomBytes(32).toString('hex');
  const opsSessionSecret = config.OPS_SESSION_SECRET ?? randomBytes(32).toString('hex');
  const verifier = new TokenVerifier({
    projectId: config.FIREBASE_PROJECT_ID,
    emulatorHost: config.FIREBASE_AUTH_EMULATOR_HOST,
    userCacheMs: config.AUTH_USER_CACHE_MS,
  });
  closers.add(() => verifier.close());

  const readyChecks: ReadyCheck[] = [{ name: 'auth', check: () => verifier.ping() }];
  const embedded = config.GATEWAY_MODE === 'embedded';
  let db: Db | undefined;
  let queue: QueueBackend | undefined;
  if (embedded) {
    db =
      opts.db ??
      (await openDb({ url: config.DATABASE_URL, dataDir: config.DATA_DIR, poolMax: config.DB_POOL_MAX }));
    if (!opts.db) closers.add(() => db!.close());
    queue =
      opts.queue ??
      openQueue({
        url: config.REDIS_URL,
        prefix: config.QUEUE_PREFIX,
        lockDurationMs: config.QUEUE_LOCK_MS,
        drainMs: config.SHUTDOWN_DRAIN_MS,
      });
    if (!opts.queue) closers.add(() => queue!.close());
    readyChecks.push(
      { name: 'store', check: () => db!.ping() },
      { name: 'queue', check: () => queue!.ping() },
    );
  } else {
    const urls = serviceUrls(config);
    for (const svc of new Set(ROUTES.map((r) => r.service))) {
      const base = urls[svc];
      if (!base) throw new Error(`distributed mode needs a URL for the ${svc} service`);
      readyChecks.push({
        name: svc,
        check: async () => {
          const res = await fetch(`${base}/readyz`, { signal: AbortSignal.timeout(2500) });
          if (!res.ok) throw new Error(`${svc} not ready (${res.status})`);
        },
      });
    }
  }

  const app = createBaseApp({
    name: 'gateway',
    logLevel: config.LOG_LEVEL,
    internalToken,
    edge: true,
    trustProxy: trustProxySetting(config.TRUST_PROXY) || false,
    metricsToken: config.METRICS_TOKEN,
    healthPrefix: '/api',
    readyChecks,
    ...(opts.logStream ? { logStream: opts.logStream } : {}),
    verify: async (request: FastifyRequest) => {
      const h = request.headers.authorization;
      if (!h) return null;
      const m = /^Bearer\s+(\S+)$/i.exec(h);
      if (!m?.[1]) return { error: 'Invalid authorization header. Please sign in again.' };
      return verifier.verify(m[1]);
    },
  });

  // The browser reaches the emulator at FIREBASE_AUTH_EMULATOR_URL when set (in containers the gateway's
  // host name for it, FIREBASE_AUTH_EMULATOR_HOST, means nothing to the browser).
  const emulatorOrigin = config.FIREBASE_AUTH_EMULATOR_URL
    ? URL.canParse(config.FIREBASE_AUTH_EMULATOR_URL)
      ? new URL(config.FIREBASE_AUTH_EMULATOR_URL).origin
      : null
    : config.FIREBASE_AUTH_EMULATOR_HOST
      ? `http://${config.FIREBASE_AUTH_EMULATOR_HOST}`
      : null;
  installSecurityHeaders(app, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", 'https://apis.google.com', 'https://www.gstatic.com'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'https:'],
        connectSrc: [
          "'self'",
          'https://*.googleapis.com',
          'https://securetoken.googleapis.com',
          'https://identitytoolkit.googleapis.com',
          ...(emulatorOrigin ? [emulatorOrigin] : []),
        ],
        frameSrc: ["'self'", 'https://*.firebaseapp.com', 'https://accounts.google.com'],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
  });
  await app.register(rateLimit, {
    max: config.RATE_LIMIT_MAX,
    timeWindow: '1 minute',
    hook: 'preHandler',
    keyGenerator: (request) => request.auth?.uid ?? request.ip,
    allowList: (request) => request.internal,
    errorResponseBuilder: (_req, ctx) => ({
      statusCode: 429,
      success: false,
      message: `Too many requests. Please try again in ${Math.ceil(ctx.ttl / 1000)} s.`,
      code: 'RATE_LIMITED',
    }),
  });
  await app.register(swagger, {
    openapi: {
      info: { title: `${config.PRODUCT_NAME} API`, version: '1.0.0' },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'Firebase ID token' } },
      },
      security: [{ bearer: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  app.get(
    '/api/public-config',
    { schema: { tags: ['config'], summary: 'Configuration the browser may see' } },
    async () => publicConfig(config),
  );

  // Who the gateway thinks is calling: handy for clients and support, and the benchmark's
  // authenticated route with no I/O (it measures what the gateway itself adds).
  app.get(
    '/api/me',
    { schema: { tags: ['session'], summary: 'The signed-in identity as verified by the gateway' } },
    async (request) => {
      const uid = requireUser(request);
      const a = request.auth!;
      return {
        success: true,
        message: 'Signed in',
        data: { uid, email: a.email, name: a.name, emailVerified: a.emailVerified },
      };
    },
  );

  let started: ServiceModule[] = [];
  if (embedded) {
    const transport: Transport = async (_svc, req) => {
      const res = await app.inject({
        method: req.method as 'GET',
        url: req.url,
        headers: req.headers,
        ...(req.body !== undefined ? { payload: req.body } : {}),
      });
      return { statusCode: res.statusCode, body: res.body };
    };
    const clients = createClients(transport, internalToken);
    const modules = (opts.modules ?? (await import('./modules.ts')).MODULES).filter(
      (m) => config.RUN_WORKER || m.name !== 'ingestion-worker',
    );
    for (const m of modules) {
      const applied = await migrateModule(db!, m);
      if (applied.length) app.log.info({ service: m.name, applied }, 'migrations applied');
    }
    const shared = { db: db!, queue: queue!, clients, closers };
    const configs = moduleConfigs(modules, opts.env ?? process.env);
    const contexts = modules.map((m) => ({ m, ctx: makeContext(m, configs.get(m)!, shared, app) }));
    for (const { m, ctx } of contexts) {
      await app.register(async (scope) => m.plugin(scope, ctx), { prefix: '/api' });
    }
    app.addHook('onReady', async () => {
      for (const { m, ctx } of contexts) await m.start?.(ctx);
    });
    started = modules;
  } else {
    registerProxy(app, serviceUrls(config), internalToken);
  }

  // Before the web app: its static plugin must not be inherited by the dashboard's own.
  await registerOps(app, { config, internalToken, opsSessionSecret, queue, embedded });
  await serveWeb(app, config.WEB_DIST);
  app.log.debug({ modules: started.map((m) => m.name) }, 'gateway built');

  return {
    app,
    async close() {
      await app.close();
      await closers.run(app.log);
    },
  };
}

/** Distributed run: each public route of the table is checked at the edge and forwarded to its service. */
function registerProxy(
  app: FastifyInstance,
  urls: Partial<Record<ServiceName, string>>,
  internalToken: string,
): void {
  const transport = httpTransport(urls, 30_000);
  const key = internalKey(internalToken);
  for (const def of ROUTES) {
    if (def.access === 'internal') continue;
    app.route({
      method: def.method,
      url: `/api${def.path}`,
      schema: { ...def.schema, summary: def.summary, tags: [def.service] },
      config: { access: def.access, service: def.service },
      preHandler: async (request) => {
        if (def.access !== 'public') requireUser(request);
      },
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const qs = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
        const path = request.url.split('?')[0] ?? '';
        const url = `${path}${qs}`;
        const headers: Record<string, string> = {
          ...signInternalCall(key, { method: request.method, url, auth: request.auth }),
          'x-request-id': request.id,
        };
        let body: string | undefined;
        if (request.body !== undefined && request.method !== 'GET') {
          body = JSON.stringify(request.body);
          headers['content-type'] = 'application/json';
        }
        let res;
        try {
          res = await transport(def.service, { method: request.method, url, headers, body });
        } catch (err) {
          request.log.error({ err, service: def.service }, 'service unreachable');
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
