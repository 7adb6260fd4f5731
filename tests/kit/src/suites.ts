import type { College } from '@ct/contracts';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { startDistributed, type Stack, type StackOptions } from '../../../scripts/lib/stack.ts';
import { launchBrowser, newPage } from './browser.ts';
import { freshDatabase, TEST_REDIS_URL, uniquePrefix, type TestDatabase } from './db.ts';
import { seedColleges } from './factories.ts';
import { startOpenAiFake, type OpenAiFake } from './fakes/openai-fake.ts';
import { startScorecardFake, type ScorecardFake } from './fakes/scorecard-fake.ts';
import { startTestGateway, type TestGateway, type TestGatewayOptions } from './gateway.ts';
import { clearRedisPrefix } from './redis.ts';

// One builder per kind of suite, as fastify/demo's `build(t)`: each starts what its suite needs in a
// beforeAll and stops it in an afterAll, both registered where it is called (a file, or a describe), and
// hands back what the tests use. Since the hooks fill them in later, what it hands back are stand-ins
// (`Slot`) that act as the real objects from the suite's beforeAll to its afterAll.

/** A stand-in for something a suite's beforeAll makes; `value` reads through to it once it exists. */
class Slot<T extends object> {
  current: T | undefined;
  readonly value: T;

  constructor(private readonly what: string) {
    this.value = new Proxy({} as T, {
      get: (_, key) => {
        // Probes of a value that is not there yet (by `await`, a printer) must not throw.
        if (this.current === undefined && (typeof key === 'symbol' || key === 'then')) return undefined;
        const target = this.get();
        const v: unknown = Reflect.get(target, key, target);
        // Bound, so that methods relying on private class fields (Playwright's) see their own object.
        return typeof v === 'function' ? v.bind(target) : v;
      },
      set: (_, key, v) => Reflect.set(this.get(), key, v),
      has: (_, key) => key in this.get(),
    });
  }

  get(): T {
    if (this.current === undefined)
      throw new Error(
        `${this.what} is not started: use it inside a test or a hook, not while the file loads`,
      );
    return this.current;
  }
}

/** Starts things side by side; keeps each one that started (for the afterAll), then fails if one did not. */
async function startTogether(starts: Array<() => Promise<void>>): Promise<void> {
  const results = await Promise.allSettled(starts.map((s) => s()));
  const failed = results.find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
}

export interface GatewaySuiteOptions extends TestGatewayOptions {
  /** Starts the gateway another way (e.g. `startCollegesGateway` with the providers' settings). */
  start?: () => Promise<TestGateway>;
  /** Colleges put in the store once the gateway is up (a function is called then). */
  colleges?: College[] | (() => Promise<College[]>);
  /** A local OpenAI, started first, whose URL and key the gateway's modules are given (`start` names them). */
  openai?: Parameters<typeof startOpenAiFake>[0];
}

export interface GatewaySuite {
  gw: TestGateway;
  /** The local OpenAI (with the `openai` option). */
  openai: OpenAiFake;
}

function gatewaySlots(opts: GatewaySuiteOptions, defaults: TestGatewayOptions) {
  const { start, colleges, openai: openaiOpts, ...gatewayOpts } = opts;
  const gw = new Slot<TestGateway>('the test gateway');
  const openai = new Slot<OpenAiFake>('the OpenAI fake (the suite has no `openai` option)');
  return {
    gw,
    openai,
    start: async () => {
      let env = gatewayOpts.env;
      if (openaiOpts) {
        openai.current = await startOpenAiFake(openaiOpts);
        env = {
          OPENAI_API_KEY: openai.current.apiKey,
          OPENAI_BASE_URL: openai.current.url,
          OPENAI_REQUESTS_PER_MINUTE: '100000',
          ...env,
        };
      }
      gw.current = await (start
        ? start()
        : startTestGateway({ ...defaults, ...gatewayOpts, ...(env ? { env } : {}) }));
      if (colleges) await seedColleges(gw.current.db, Array.isArray(colleges) ? colleges : await colleges());
    },
    stop: async () => {
      const [g, o] = [gw.current, openai.current];
      gw.current = openai.current = undefined;
      await g?.close();
      await o?.close();
    },
  };
}

/**
 * A suite that calls the API: the embedded gateway on a fresh database and Redis prefix (and the local
 * OpenAI it asks, if any), started before the suite's tests and closed after them.
 */
export function gatewaySuite(opts: GatewaySuiteOptions = {}): GatewaySuite {
  const { gw, openai, start, stop } = gatewaySlots(opts, {});
  beforeAll(start);
  afterAll(stop);
  return { gw: gw.value, openai: openai.value };
}

/** One Chromium for the suite's tests, launched before them and closed after them. */
export function sharedBrowser(): Browser {
  const browser = new Slot<Browser>('the browser');
  beforeAll(async () => {
    browser.current = await launchBrowser();
  });
  afterAll(async () => {
    const b = browser.current;
    browser.current = undefined;
    await b?.close();
  });
  return browser.value;
}

/** The gateway (listening: it serves the built web app), the browser, and pages on the app. */
export interface BrowserSuite extends GatewaySuite {
  browser: Browser;
  /** A page in a fresh browser context (its own storage) on the gateway's URL, or on `baseURL`. */
  newPage(opts?: Parameters<typeof newPage>[2] & { baseURL?: string }): ReturnType<typeof newPage>;
}

/**
 * A suite of pages in Chromium: a listening gateway (the in-process queue unless `queue` says otherwise)
 * and a browser, started side by side before the suite's tests and closed after them.
 */
export function browserSuite(opts: GatewaySuiteOptions = {}): BrowserSuite {
  const { gw, openai, start, stop } = gatewaySlots(opts, { queue: 'memory', listen: true });
  const browser = new Slot<Browser>('the browser');
  beforeAll(() =>
    startTogether([
      start,
      async () => {
        browser.current = await launchBrowser();
      },
    ]),
  );
  afterAll(async () => {
    const b = browser.current;
    browser.current = undefined;
    await b?.close();
    await stop();
  });
  return {
    gw: gw.value,
    openai: openai.value,
    browser: browser.value,
    newPage: ({ baseURL, ...o } = {}) => newPage(browser.get(), baseURL ?? gw.get().url, o),
  };
}

export interface ProviderFakes {
  scorecard: ScorecardFake;
  openai: OpenAiFake;
  /** The settings that point the worker and the colleges service at both fakes. */
  providerEnv(): Record<
    'SCORECARD_API_URL' | 'SCORECARD_API_KEY' | 'OPENAI_BASE_URL' | 'OPENAI_API_KEY',
    string
  >;
}

/**
 * The local College Scorecard API and OpenAI Responses API, started before the suite's tests (whose
 * gateways are pointed at them) and closed after them.
 */
export function providerFakes(
  opts: {
    openai?: Parameters<typeof startOpenAiFake>[0];
    scorecard?: Parameters<typeof startScorecardFake>[0];
  } = {},
): ProviderFakes {
  const scorecard = new Slot<ScorecardFake>('the Scorecard fake');
  const openai = new Slot<OpenAiFake>('the OpenAI fake');
  beforeAll(() =>
    startTogether([
      async () => {
        scorecard.current = await startScorecardFake(opts.scorecard);
      },
      async () => {
        openai.current = await startOpenAiFake(opts.openai);
      },
    ]),
  );
  afterAll(async () => {
    await Promise.all([scorecard.current?.close(), openai.current?.close()]);
    scorecard.current = openai.current = undefined;
  });
  return {
    scorecard: scorecard.value,
    openai: openai.value,
    providerEnv: () => ({
      SCORECARD_API_URL: scorecard.get().url,
      SCORECARD_API_KEY: scorecard.get().apiKey,
      OPENAI_BASE_URL: openai.get().url,
      OPENAI_API_KEY: openai.get().apiKey,
    }),
  };
}

export interface DistributedSuiteOptions {
  /** Names the suite's database and queue prefix. */
  label: string;
  /** The gateway's port; the services take the next ones. */
  basePort: number;
  /** Over the defaults (queue prefix, warn logs, the Auth emulator, web/dist); a function is read at start. */
  env?: Record<string, string> | (() => Record<string, string>);
  /** Only these services (the gateway always runs). */
  only?: string[];
  /** Starts the stack another way (e.g. the embedded run as its own process) on the suite's database. */
  start?: (opts: StackOptions & { basePort: number; env: Record<string, string> }) => Promise<Stack>;
  /** How long starting may take. */
  timeout?: number;
}

export interface DistributedSuite {
  stack: Stack;
  database: TestDatabase;
  /** The processes' queue prefix in Redis. */
  prefix: string;
}

/**
 * The distributed run (every service, the worker and the gateway as processes of their own) on a fresh
 * database and Redis prefix, started before the suite's tests and stopped after them.
 */
export function distributedSuite(opts: DistributedSuiteOptions): DistributedSuite {
  const stack = new Slot<Stack>('the distributed stack');
  const database = new Slot<TestDatabase>('the database');
  const prefix = uniquePrefix(opts.label);
  beforeAll(async () => {
    database.current = await freshDatabase(opts.label);
    const env = {
      QUEUE_PREFIX: prefix,
      LOG_LEVEL: 'warn',
      FIREBASE_AUTH_EMULATOR_HOST: process.env.FIREBASE_AUTH_EMULATOR_HOST ?? '',
      WEB_DIST: 'web/dist',
      ...(typeof opts.env === 'function' ? opts.env() : opts.env),
    };
    stack.current = await (opts.start ?? startDistributed)({
      databaseUrl: database.current.url,
      redisUrl: TEST_REDIS_URL,
      basePort: opts.basePort,
      env,
      ...(opts.only ? { only: opts.only } : {}),
    });
  }, opts.timeout ?? 240_000);
  afterAll(async () => {
    try {
      await stack.current?.stop();
    } finally {
      await database.current?.drop();
      await clearRedisPrefix(prefix);
      stack.current = database.current = undefined;
    }
  }, 60_000);
  return { stack: stack.value, database: database.value, prefix };
}
