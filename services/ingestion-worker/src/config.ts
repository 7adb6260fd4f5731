import Type, { type Static } from 'typebox';
import { DEFAULT_SCORECARD_API_URL } from '@ct/providers';
import type { QueueLimiter } from '@ct/queue';
import { COLLEGES_JOB_SETTINGS } from '@ct/colleges/config';
import { withBase } from '@ct/service-kit';

const HttpUrl = (def?: string) => Type.String({ pattern: '^https?://.+', ...(def ? { default: def } : {}) });

/** The worker's own settings. API keys are secrets: never logged, never sent anywhere but their API. */
const OWN = {
  /** Jobs run at the same time by one worker process. */
  INGESTION_CONCURRENCY: Type.Integer({ minimum: 1, maximum: 200, default: 4 }),
  /** Essays jobs (example essays, platform prompts) run at the same time by one worker process. */
  ESSAY_EXAMPLES_CONCURRENCY: Type.Integer({ minimum: 1, maximum: 20, default: 2 }),
  SCORECARD_API_URL: HttpUrl(DEFAULT_SCORECARD_API_URL),
  /** api.data.gov key; without it no government data is gathered. */
  SCORECARD_API_KEY: Type.Optional(Type.String({ minLength: 1 })),
  SCORECARD_TIMEOUT_MS: Type.Integer({ minimum: 100, default: 15_000 }),
  /** api.data.gov allows 1,000 requests an hour per key by default. */
  SCORECARD_REQUESTS_PER_MINUTE: Type.Integer({ minimum: 1, default: 16 }),
  /** Without it no college facts are gathered. */
  OPENAI_API_KEY: Type.Optional(Type.String({ minLength: 1 })),
  OPENAI_BASE_URL: Type.Optional(HttpUrl()),
  /** A model that supports the web search tool in the Responses API. */
  OPENAI_MODEL: Type.String({ minLength: 1, default: 'gpt-4.1-mini' }),
  OPENAI_TIMEOUT_MS: Type.Integer({ minimum: 100, default: 120_000 }),
  OPENAI_REQUESTS_PER_MINUTE: Type.Integer({ minimum: 1, default: 60 }),
  /**
   * The Common App requirements grid (deadlines and requirements per college): by default the grid shipped
   * with the product; a path to a newer file of the same shape (scripts/data/match-common-app.ts makes it);
   * "none" turns it off.
   */
  LOCAL_DEADLINES_FILE: Type.Optional(Type.String({ minLength: 1 })),
};

/**
 * The worker runs the colleges service's job module, so it reads the settings that module uses (tries, the
 * hourly AI limit), from the same variables the colleges service reads.
 */
export const WorkerConfig = withBase({ ...COLLEGES_JOB_SETTINGS, ...OWN });
export type WorkerConfig = Static<typeof WorkerConfig>;

/** The most AI calls one job of the ingestion queue makes. */
const AI_CALLS_PER_JOB = 1;

/**
 * The AI provider's request limit as a limit on job starts for the whole queue (BullMQ counts them in
 * Redis), so it holds however many workers run: a job makes at most one AI call. The Scorecard's limit
 * is counted per call instead (`call-limiter.ts`): a college the snapshot holds makes none, and a
 * per-job count assumed every job made two.
 */
export function providerLimiter(config: WorkerConfig): QueueLimiter | undefined {
  if (!config.OPENAI_API_KEY) return undefined;
  return {
    max: Math.max(1, Math.floor(config.OPENAI_REQUESTS_PER_MINUTE / AI_CALLS_PER_JOB)),
    durationMs: 60_000,
  };
}

/** The AI provider's request limit for the essays queue (one AI call a job), across every worker. */
export function aiLimiter(config: WorkerConfig): QueueLimiter | undefined {
  return config.OPENAI_API_KEY ? { max: config.OPENAI_REQUESTS_PER_MINUTE, durationMs: 60_000 } : undefined;
}
