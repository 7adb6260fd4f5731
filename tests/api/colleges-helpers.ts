import { openQueue, type JobInfo, type QueueBackend } from '@ct/queue';
import { startTestGateway, TEST_REDIS_URL, type TestGateway, type TestGatewayOptions } from '@ct/testkit';

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
