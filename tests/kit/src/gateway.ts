import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { buildGateway, GatewayConfig, type Gateway } from '@ct/gateway';
import {
  internalKey,
  parseConfig,
  signInternalCall,
  type AuthContext,
  type ServiceModule,
} from '@ct/service-kit';
import type { FastifyInstance } from 'fastify';
import { openDb, type Db } from '@ct/store';
import { freshDatabase, TEST_REDIS_URL, uniquePrefix, type TestDatabase } from './db.ts';
import { clearRedisPrefix } from './redis.ts';

export const WEB_DIST = fileURLToPath(new URL('../../../web/dist', import.meta.url));

export interface TestGatewayOptions {
  /** Extra or overriding environment for the gateway config. */
  env?: Record<string, string>;
  modules?: ServiceModule[];
  /** `postgres` (default): a fresh database on the test server; `pglite`: in memory. */
  store?: 'postgres' | 'pglite';
  /** `bullmq` (default): real Redis under a unique prefix; `memory`: the in-process queue. */
  queue?: 'bullmq' | 'memory';
  /** Listen on a random port (for browsers and HTTP clients); otherwise use inject. */
  listen?: boolean;
}

export interface ApiResult<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Record<string, unknown>;
}

export interface TestGateway {
  app: FastifyInstance;
  gateway: Gateway;
  /** Base URL when listening, e.g. http://127.0.0.1:41234 */
  url: string;
  /**
   * When listening: a second port that serves the same app without the public listener's header
   * stripping, like a service's own port in the distributed run. For processes that call the embedded
   * services with signed internal calls from outside this process (a worker under test).
   */
  internalUrl: string;
  database: TestDatabase | null;
  /** The store the gateway's services use (for seeding and checking). */
  db: Db;
  prefix: string;
  /** The key that signs internal calls (INTERNAL_TOKEN). */
  internalToken: string;
  /**
   * Calls the API through the gateway with an optional bearer token, or as a service would (`internal`:
   * a signed internal call, on behalf of a user when given one). Calls go in-process (inject), as the
   * embedded run's own service calls do; the public listener drops internal headers.
   */
  api<T = Record<string, unknown>>(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    path: string,
    opts?: {
      token?: string;
      query?: Record<string, unknown>;
      body?: unknown;
      headers?: Record<string, string>;
      internal?: true | AuthContext;
    },
  ): Promise<ApiResult<T>>;
  close(): Promise<void>;
}

/** Starts the embedded gateway on real infrastructure, isolated from other test files. */
export async function startTestGateway(opts: TestGatewayOptions = {}): Promise<TestGateway> {
  const database = (opts.store ?? 'postgres') === 'postgres' ? await freshDatabase('gw') : null;
  const prefix = uniquePrefix('gw');
  const useRedis = (opts.queue ?? 'bullmq') === 'bullmq';
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    GATEWAY_MODE: 'embedded',
    DATA_DIR: 'memory://',
    QUEUE_PREFIX: prefix,
    WEB_DIST,
    AUTH_USER_CACHE_MS: '0',
    RATE_LIMIT_MAX: '1000000',
    INTERNAL_TOKEN: randomBytes(32).toString('hex'),
    ...(database ? { DATABASE_URL: database.url } : {}),
    ...(useRedis ? { REDIS_URL: TEST_REDIS_URL } : {}),
    ...(process.env.FIREBASE_AUTH_EMULATOR_HOST
      ? { FIREBASE_AUTH_EMULATOR_HOST: process.env.FIREBASE_AUTH_EMULATOR_HOST }
      : {}),
    ...opts.env,
  };
  const config = parseConfig(GatewayConfig, env);
  const db = await openDb({ url: config.DATABASE_URL, dataDir: config.DATA_DIR, poolMax: 10 });
  // Modules read their own settings from the same variables, over what the test process has set.
  const gateway = await buildGateway({
    config,
    db,
    env: { ...process.env, ...env },
    ...(opts.modules ? { modules: opts.modules } : {}),
  });
  let url = '';
  let internalUrl = '';
  let internal: http.Server | null = null;
  if (opts.listen) {
    url = await gateway.app.listen({ port: 0, host: '127.0.0.1' });
    internal = http.createServer((req, res) => gateway.app.routing(req, res));
    await new Promise<void>((resolve) => internal!.listen(0, '127.0.0.1', resolve));
    internalUrl = `http://127.0.0.1:${(internal.address() as AddressInfo).port}`;
  } else {
    await gateway.app.ready();
  }
  const app = gateway.app;
  const internalToken = config.INTERNAL_TOKEN!;
  const key = internalKey(internalToken);
  return {
    app,
    gateway,
    url,
    internalUrl,
    database,
    db,
    prefix,
    internalToken,
    async api(method, path, o = {}) {
      const qs = new URLSearchParams();
      for (const [k, v] of Object.entries(o.query ?? {})) if (v !== undefined) qs.set(k, String(v));
      const target = `${path}${qs.size ? `?${qs}` : ''}`;
      const signed = o.internal
        ? signInternalCall(key, { method, url: target, auth: o.internal === true ? null : o.internal })
        : {};
      const res = await app.inject({
        method,
        url: target,
        headers: { ...(o.token ? { authorization: `Bearer ${o.token}` } : {}), ...signed, ...o.headers },
        ...(o.body !== undefined ? { payload: o.body as object } : {}),
      });
      let body: unknown;
      try {
        body = res.json();
      } catch {
        body = res.body;
      }
      return { status: res.statusCode, body: body as never, headers: res.headers };
    },
    async close() {
      if (internal) {
        internal.closeAllConnections();
        await new Promise((resolve) => internal!.close(resolve));
      }
      await gateway.close();
      await db.close();
      if (database) await database.drop();
      if (useRedis) await clearRedisPrefix(prefix);
    },
  };
}
