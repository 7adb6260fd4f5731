import Type, { type Static } from 'typebox';
import { withBase } from '@ct/service-kit';

/** The colleges service's own settings (the base variables come from service-kit). */
export const COLLEGES_SETTINGS = {
  /** Tries per ingestion job, the first included. */
  INGESTION_ATTEMPTS: Type.Integer({ minimum: 1, maximum: 20, default: 3 }),
  /** First retry delay of an ingestion job; doubles on each further retry. */
  INGESTION_BACKOFF_MS: Type.Integer({ minimum: 0, maximum: 3_600_000, default: 5000 }),
  /** A failed request is shown as failed for this long; a student asking again after that queues it again. */
  INGESTION_RETRY_FAILED_AFTER_MS: Type.Integer({ minimum: 0, default: 600_000 }),
  /** How often requests still waiting or running get their job back if the queue lost it (0: only at start). */
  INGESTION_SWEEP_MS: Type.Integer({ minimum: 0, default: 60_000 }),
  /** New college names (unknown to the cache) one student may have gathered in 24 hours. */
  INGESTION_USER_DAILY_QUOTA: Type.Integer({ minimum: 1, maximum: 100_000, default: 20 }),
  /**
   * Cached colleges whose facts (AI work) one student's searches and adds may have gathered in 24 hours;
   * past it the college still answers at once with its official figures, nothing is queued.
   */
  INGESTION_USER_DAILY_ENRICHMENTS: Type.Integer({ minimum: 0, maximum: 100_000, default: 40 }),
  /** Major profiles (AI work) one student may have gathered in 24 hours. */
  MAJOR_USER_DAILY_QUOTA: Type.Integer({ minimum: 1, maximum: 100_000, default: 40 }),
  /** AI calls all workers together may make in any hour (the circuit breaker); counted in the database. */
  AI_CALLS_PER_HOUR: Type.Integer({ minimum: 1, maximum: 10_000_000, default: 300 }),
  /**
   * The most one student's requests may book of an hour's AI calls, in percent of `AI_CALLS_PER_HOUR`
   * (at least one call): past it, their new work waits for a later hour.
   */
  AI_STUDENT_SHARE_PERCENT: Type.Integer({ minimum: 1, maximum: 100, default: 10 }),
  /** The part of each hour's AI calls kept for students' first request of the day, in percent. */
  AI_FIRST_REQUEST_RESERVE_PERCENT: Type.Integer({ minimum: 0, maximum: 90, default: 10 }),
  /** How often the outbox relay looks for events still to publish (it also runs after every commit). */
  OUTBOX_RELAY_MS: Type.Integer({ minimum: 100, maximum: 3_600_000, default: 5000 }),
  /**
   * The AI provider's key, as the ingestion worker has it. Only whether it is set is read here: without
   * it, no enrichment is queued and the college card says which facts need it.
   */
  OPENAI_API_KEY: Type.Optional(Type.String({ minLength: 1 })),
  /**
   * Load the College Scorecard snapshot shipped with the product (with the Common App grid facts) at start,
   * once per version. Off only where a test or an operator wants an empty college cache.
   */
  LOAD_SNAPSHOT: Type.Boolean({ default: true }),
};

export const CollegesConfig = withBase(COLLEGES_SETTINGS);

/** The settings the colleges job module reads where it runs (the ingestion worker reads them too). */
export const COLLEGES_JOB_SETTINGS = {
  INGESTION_ATTEMPTS: COLLEGES_SETTINGS.INGESTION_ATTEMPTS,
  AI_CALLS_PER_HOUR: COLLEGES_SETTINGS.AI_CALLS_PER_HOUR,
};
export const CollegesJobConfig = withBase(COLLEGES_JOB_SETTINGS);
export type CollegesJobConfig = Static<typeof CollegesJobConfig>;
export type CollegesConfig = Static<typeof CollegesConfig>;
