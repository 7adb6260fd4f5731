import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type {} from '@fastify/swagger';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerFactory,
} from 'fastify';
import client from 'prom-client';
import pino, { type Bindings, type ChildLoggerOptions } from 'pino';
import { AccessLog, type AccessLogMode } from './access-log.ts';
import { KIT_MSG } from './messages.ts';
import { installErrorHandler } from './errors.ts';
import { installIdentity, type Verify } from './identity.ts';
import { logUrl } from './log-url.ts';
import { internalKey, stripInternalHeaders } from './internal-auth.ts';
import { installMetrics } from './metrics.ts';
import { installValidation } from './validation.ts';

export interface ReadyCheck {
  name: string;
  /** Resolves when ready; throws (or rejects) with why not. */
  check: () => Promise<void>;
  /**
   * The check's error message is a reason fit to send ("the college data is loading: 1,200 of 6,543"),
   * so the 503 says it. Otherwise the reason is only logged (it may name hosts or credentials).
   */
  explains?: boolean;
}

export interface BaseAppOptions {
  name: string;
  logLevel?: string;
  /** Signs and checks service-to-service calls (INTERNAL_TOKEN). */
  internalToken: string;
  /**
   * The public listener (the gateway): every internal header is dropped from what arrives over the network
   * before anything reads it. In-process calls (inject) never pass the listener, so they keep theirs.
   */
  edge?: boolean;
  /** Which proxies in front may set X-Forwarded-For (Fastify `trustProxy`); none by default. */
  trustProxy?: false | string[];
  /** Bearer token for `/metrics` (METRICS_TOKEN); without it `/metrics` is off. */
  metricsToken?: string | undefined;
  /** Gateway only: verifies a bearer token (synchronously when its answer is cached). */
  verify?: Verify;
  /** Prefix for health routes (`/api` on the gateway). */
  healthPrefix?: string;
  readyChecks?: ReadyCheck[];
  bodyLimit?: number;
  /**
   * How long a client may take to send a whole request (default 30 s; its headers: at most 10 s of it).
   * Node's own default is no limit once Fastify's `requestTimeout: 0` reaches it: a client sending a body
   * a byte a minute would hold its connection open for ever.
   */
  requestTimeoutMs?: number;
  /**
   * Log each request's whole query string (LOG_FULL_URLS); by default only the names of its parameters
   * (`logUrl`). Capability tokens are masked either way.
   */
  logFullUrls?: boolean;
  /** Log destination for tests; defaults to stdout. */
  logStream?: NodeJS.WritableStream;
  registry?: client.Registry;
  /** ACCESS_LOG: `sampled` (default: errors whole, the rest sampled and counted) or `full` (every line). */
  accessLog?: AccessLogMode;
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** Paths and headers that must never reach the logs. */
export const LOG_REDACT = [
  'req.headers.authorization',
  'req.headers["x-internal-auth"]',
  'req.headers.cookie',
  'headers.authorization',
  'authorization',
  'token',
  'idToken',
  'password',
  'apiKey',
];

export { logUrl, redactUrlSecrets } from './log-url.ts';

let stdout: pino.DestinationStream | undefined;

/**
 * The process's log destination: standard output, written asynchronously. A synchronous write per line
 * (pino's default) was a fifth of the gateway's busy time under load; lines that accumulate while a write
 * is in flight now go out together, and an idle process still writes each line at once. Buffered lines are
 * flushed when the process exits (pino registers that); one destination per process, so lines of the
 * apps sharing it never interleave.
 */
function stdoutLog(): pino.DestinationStream {
  stdout ??= pino.destination({ dest: 1, sync: false });
  return stdout;
}

type LogArgs = [obj: unknown, msg?: string, ...args: unknown[]];

/**
 * `request.log`, made only when something logs with it. Fastify makes a pino child logger for every
 * request (its bindings serialised, its serializers set up), a measurable share of a cheap request; most
 * requests log only their one line, which `OneLinePerRequest` writes with the parent logger and the same
 * request id, so the child is made only for a request whose code logs something of its own.
 */
class LazyRequestLogger {
  private made: FastifyBaseLogger | undefined;
  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly opts: ChildLoggerOptions,
  ) {}

  private get log(): FastifyBaseLogger {
    return (this.made ??= this.parent.child(this.bindings, this.opts));
  }
  get level(): string {
    return this.made?.level ?? this.opts.level ?? this.parent.level;
  }
  set level(level: string) {
    this.log.level = level;
  }
  fatal(...a: LogArgs): void {
    (this.log.fatal as (...a: LogArgs) => void)(...a);
  }
  error(...a: LogArgs): void {
    (this.log.error as (...a: LogArgs) => void)(...a);
  }
  warn(...a: LogArgs): void {
    (this.log.warn as (...a: LogArgs) => void)(...a);
  }
  info(...a: LogArgs): void {
    (this.log.info as (...a: LogArgs) => void)(...a);
  }
  debug(...a: LogArgs): void {
    (this.log.debug as (...a: LogArgs) => void)(...a);
  }
  trace(...a: LogArgs): void {
    (this.log.trace as (...a: LogArgs) => void)(...a);
  }
  silent(...a: LogArgs): void {
    (this.log.silent as (...a: LogArgs) => void)(...a);
  }
  child(bindings: Bindings, opts?: ChildLoggerOptions): FastifyBaseLogger {
    return this.log.child(bindings, opts);
  }

  /** An info line with the request's bindings: through its child if one was made, else the parent. */
  line(obj: Record<string, unknown>, msg: string): void {
    if (this.made || Object.keys(this.opts).length) this.log.info(obj, msg);
    else this.parent.info({ ...this.bindings, ...obj }, msg);
  }
}

const lazyRequestLogger = (logger: FastifyBaseLogger, bindings: Bindings, opts: ChildLoggerOptions) =>
  new LazyRequestLogger(logger, bindings, opts) as unknown as FastifyBaseLogger;

/**
 * One info line per request, written when it is answered, with the request and the outcome (Fastify's
 * default writes a second line when the request arrives: twice the logging cost on every request); how
 * many of those lines are written is the access log's choice (`access-log.ts`).
 */
class OneLinePerRequest extends LogController {
  constructor(private readonly access: AccessLog) {
    super();
  }

  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const whole = this.access.keep(
      request.method,
      request.routeOptions.url ?? 'unmatched',
      reply.statusCode,
      reply.elapsedTime,
    );
    if (error) return super.requestCompleted(error, request, reply);
    if (!whole) return;
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (reply.log instanceof LazyRequestLogger) reply.log.line(line, 'request completed');
    else reply.log.info(line, 'request completed');
  }
}

/**
 * A Fastify app with the shared skeleton: pino logs with a request id, validation, the one error handler,
 * identity, metrics, `/healthz` and `/readyz`. It never listens; `server.ts` files do.
 */
export function createBaseApp(opts: BaseAppOptions): FastifyInstance {
  const access = new AccessLog(opts.accessLog ?? 'sampled');
  const app = Fastify({
    logger: {
      level: opts.logLevel ?? 'info',
      base: { service: opts.name },
      redact: { paths: LOG_REDACT, censor: '[redacted]' },
      serializers: {
        req: (req: FastifyRequest) => ({
          method: req.method,
          url: logUrl(req.url, opts.logFullUrls),
          host: req.host,
          remoteAddress: req.ip,
          remotePort: req.socket?.remotePort,
        }),
      },
      stream: opts.logStream ?? stdoutLog(),
    },
    logController: new OneLinePerRequest(access),
    childLoggerFactory: lazyRequestLogger,
    bodyLimit: opts.bodyLimit ?? 256 * 1024,
    requestTimeout: opts.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    genReqId: (req) => {
      const h = req.headers['x-request-id'];
      return typeof h === 'string' && REQUEST_ID.test(h) ? h : randomUUID();
    },
    trustProxy: opts.trustProxy ?? false,
    serverFactory: opts.edge ? edgeServer : plainServer,
    routerOptions: { ignoreTrailingSlash: true },
    // A URL the router cannot decode (e.g. a lone surrogate in a path parameter) gets the one error shape.
    frameworkErrors: (err, _request, reply) => {
      // The hook's reply type is generic over no route; it is an ordinary reply.
      void (reply as unknown as FastifyReply).status(400).send({
        success: false,
        message: err.code === 'FST_ERR_BAD_URL' ? KIT_MSG.badUrl : KIT_MSG.invalid(err.message),
        code: 'VALIDATION_ERROR',
      });
    },
  });
  access.start((obj, msg) => app.log.info(obj, msg));
  app.addHook('onClose', (_instance, done) => {
    access.stop();
    done();
  });
  // Callback style: a hook on every request, and an async one costs a promise each time.
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    done(null, payload);
  });
  installValidation(app);
  installErrorHandler(app);
  installIdentity(app, internalKey(opts.internalToken), opts.verify);
  installMetrics(app, opts.registry ?? new client.Registry(), '/metrics', {
    process: opts.name,
    token: opts.metricsToken,
  });

  const prefix = opts.healthPrefix ?? '';
  // Read on each request: service modules add their checks to the same list when they are mounted.
  const checks = opts.readyChecks ?? [];
  app.get(`${prefix}/healthz`, { schema: { tags: ['health'], summary: 'Process is up' } }, async () => ({
    success: true,
    status: 'ok',
  }));
  app.get(
    `${prefix}/readyz`,
    {
      schema: {
        tags: ['health'],
        summary: 'Store, queue and auth are reachable, and each service has what it serves loaded',
      },
    },
    async (_req, reply) => {
      const results = await Promise.all(
        checks.map(async (c) => {
          try {
            await withTimeout(c.check(), 3000);
            return { name: c.name, ok: true as const };
          } catch (err) {
            return {
              name: c.name,
              ok: false as const,
              error: err instanceof Error ? err.message : String(err),
              explains: c.explains === true,
            };
          }
        }),
      );
      const failed = results.filter((r) => !r.ok);
      if (failed.length) {
        app.log.warn({ failed }, 'not ready');
        return reply.status(503).send({
          success: false,
          message: KIT_MSG.notReady(
            failed.filter((f) => !f.explains).map((f) => f.name),
            failed.flatMap((f) => (f.explains ? [f.error] : [])),
          ),
          code: 'DEPENDENCY_UNAVAILABLE',
          checks: Object.fromEntries(results.map((r) => [r.name, r.ok ? 'ok' : 'down'])),
        });
      }
      return {
        success: true,
        status: 'ready',
        checks: Object.fromEntries(results.map((r) => [r.name, 'ok'])),
      };
    },
  );
  return app;
}

/**
 * The HTTP server of a public listener: what Fastify would make (same timeouts), with every internal
 * header removed from each request before Fastify sees it.
 */
const edgeServer: FastifyServerFactory = (handler, opts) =>
  plainServer((req, res) => {
    stripInternalHeaders(req.headers);
    handler(req, res);
  }, opts);

const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/** The longest a client may take to send its request headers. */
const HEADERS_TIMEOUT_MS = 10_000;

/**
 * The HTTP server Fastify makes by default, with its timeouts, and bounded request and header times: a
 * request whose headers or body arrive too slowly is answered 408 and its connection closed. Node checks
 * those limits every `connectionsCheckingInterval`, kept well under them.
 */
const plainServer: FastifyServerFactory = (handler, options) => {
  // Fastify passes its options with defaults filled in; typed loosely by Fastify, read as numbers.
  const opts = options as { keepAliveTimeout?: number; requestTimeout?: number; connectionTimeout?: number };
  const requestTimeout = opts.requestTimeout || DEFAULT_REQUEST_TIMEOUT_MS;
  const headersTimeout = Math.min(HEADERS_TIMEOUT_MS, requestTimeout);
  const server = http.createServer(
    { requestTimeout, headersTimeout, connectionsCheckingInterval: Math.min(1000, headersTimeout / 2) },
    handler,
  );
  if (opts.keepAliveTimeout !== undefined) server.keepAliveTimeout = opts.keepAliveTimeout;
  server.setTimeout(opts.connectionTimeout ?? 0);
  return server;
};

export function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    p.then(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(t);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}
