import { openQueue, type JobInfo, type QueueBackend } from '@ct/queue';
import {
  gatewaySuite,
  startTestGateway,
  TEST_REDIS_URL,
  type GatewaySuite,
  type OpenAiFake,
  type Responder,
  type TestGateway,
  type TestGatewayOptions,
} from '@ct/testkit';

/** The worker's and colleges service's variables a test sets (undefined: unset). */
export type ProviderEnv = Partial<
  Record<
    | 'SCORECARD_API_URL'
    | 'SCORECARD_API_KEY'
    | 'OPENAI_API_KEY'
    | 'OPENAI_BASE_URL'
    | 'INGESTION_BACKOFF_MS'
    | 'INGESTION_ATTEMPTS'
    | 'INGESTION_CONCURRENCY'
    | 'SCORECARD_TIMEOUT_MS'
    | 'OPENAI_TIMEOUT_MS'
    | 'SCORECARD_REQUESTS_PER_MINUTE'
    | 'OPENAI_REQUESTS_PER_MINUTE'
    | 'LOCAL_DEADLINES_FILE'
    | 'INGESTION_SWEEP_MS'
    | 'INGESTION_USER_DAILY_QUOTA'
    | 'AI_CALLS_PER_HOUR'
    | 'OUTBOX_RELAY_MS',
    string | undefined
  >
>;

/**
 * Starts the embedded gateway with the worker's and the colleges service's own settings. Embedded, those
 * modules read their variables from the environment (the gateway parses only its own), so they are set
 * here for this test file's process.
 */
export async function startCollegesGateway(
  env: ProviderEnv,
  opts: TestGatewayOptions = {},
): Promise<TestGateway> {
  for (const [k, v] of Object.entries({
    SCORECARD_REQUESTS_PER_MINUTE: '100000',
    OPENAI_REQUESTS_PER_MINUTE: '100000',
    ...env,
  })) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  return startTestGateway({ queue: 'bullmq', ...opts });
}

/** Polls until `check` returns a value (not undefined), or fails after `timeoutMs`. */
export async function eventually<T>(
  check: () => Promise<T | undefined>,
  timeoutMs = 20_000,
  label = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const v = await check();
      if (v !== undefined) return v;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${label}${last ? `: ${String(last)}` : ''}`);
}

/** A queue client on the test gateway's Redis prefix, to look at jobs and events. */
export function queueOf(gw: TestGateway): QueueBackend {
  return openQueue({ url: TEST_REDIS_URL, prefix: gw.prefix });
}

export async function allJobs(q: QueueBackend, queue: string): Promise<JobInfo[]> {
  return q.list(queue, ['waiting', 'delayed', 'active', 'completed', 'failed'], 1000);
}

/**
 * The suite's gateway (see `gatewaySuite`) with the worker's and the colleges service's settings, which
 * `env` gives when the suite starts (so that it can name fakes started before it).
 */
export function collegesSuite(env: () => ProviderEnv, opts: TestGatewayOptions = {}): TestGateway {
  return gatewaySuite({ start: () => startCollegesGateway(env(), opts) }).gw;
}

/**
 * A suite whose colleges gateway asks the local OpenAI (started with it, answering with `responder`) and
 * has no College Scorecard key: the settings of `npm start` with only an AI key. `env` adds to them.
 */
export function aiCollegesSuite(
  env: ProviderEnv = {},
  opts: TestGatewayOptions & { responder?: Responder } = {},
): { gw: TestGateway; openai: OpenAiFake } {
  const { responder, ...gatewayOpts } = opts;
  const suite: GatewaySuite = gatewaySuite({
    openai: responder ? { responder } : {},
    start: () =>
      startCollegesGateway(
        {
          SCORECARD_API_URL: undefined,
          SCORECARD_API_KEY: undefined,
          OPENAI_BASE_URL: suite.openai.url,
          OPENAI_API_KEY: suite.openai.apiKey,
          INGESTION_BACKOFF_MS: '50',
          ...env,
        },
        gatewayOpts,
      ),
  });
  return suite;
}
