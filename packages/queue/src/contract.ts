/** The job-queue contract. Two implementations: BullMQ on Redis, and in-process for the embedded run. */

/**
 * `lost`: the queue has the job's data but it is in no list (a partial loss of Redis keys): it will never
 * run, so it counts as gone (the sweep enqueues its request again).
 */
export type JobState = 'waiting' | 'delayed' | 'active' | 'completed' | 'failed' | 'lost';

export interface AddOptions {
  /** Deterministic id: adding the same id while a job is waiting, delayed or active joins that job. */
  jobId: string;
  /** Total tries including the first (default 3). */
  attempts?: number;
  /** First retry delay; doubles on each further retry (default 1000 ms). */
  backoffMs?: number;
  /**
   * Order among waiting jobs: lower first (1 is the highest), the same priority first come first served.
   * Default `DEFAULT_PRIORITY` (the highest: on BullMQ, the plain wait list, taken before any other).
   */
  priority?: number;
  /** Milliseconds before the job may run (it waits as `delayed` until then); default 0. */
  delayMs?: number;
}

/** The priority of a job added without one. */
export const DEFAULT_PRIORITY = 1;
/** The lowest priority BullMQ accepts. */
export const MAX_PRIORITY = 2_097_152;

/** A job's priority as the backends take it: a whole number from 1 to MAX_PRIORITY. */
export function clampPriority(p: number | undefined): number {
  return Math.min(MAX_PRIORITY, Math.max(1, Math.round(p ?? DEFAULT_PRIORITY)));
}

export interface AddResult {
  jobId: string;
  /** false when an unfinished job with this id already existed and was joined */
  added: boolean;
}

export interface JobInfo<T = unknown> {
  id: string;
  name: string;
  data: T;
  state: JobState;
  /** Tries made so far */
  attemptsMade: number;
  failedReason: string | null;
  returnValue: unknown;
}

export interface JobContext<T = unknown> {
  id: string;
  name: string;
  data: T;
  /** Tries made before this one (0 on the first try) */
  attemptsMade: number;
  /** Total tries allowed */
  attempts: number;
  /**
   * Aborted when the consumer hands the job back to the queue on shutdown (the drain time ran out):
   * stop early; another worker will run the job again.
   */
  signal?: AbortSignal;
}

export type JobHandler<T = unknown> = (job: JobContext<T>) => Promise<unknown>;

export interface QueueEvent {
  type: 'completed' | 'failed';
  queue: string;
  jobId: string;
  /** For `failed`: true when no retry follows */
  final: boolean;
  failedReason: string | null;
  returnValue: unknown;
}

export interface QueueCounts {
  waiting: number;
  delayed: number;
  active: number;
  completed: number;
  failed: number;
}

/** At most `max` jobs of a queue start in each `durationMs`, counted over every consumer of the queue. */
export interface QueueLimiter {
  max: number;
  durationMs: number;
}

export interface ConsumeOptions {
  concurrency?: number;
  /**
   * Starts per time window for the whole queue: BullMQ counts them in Redis, so the limit holds across
   * every worker process; give every consumer of a queue the same limiter.
   */
  limiter?: QueueLimiter | undefined;
}

export interface Consumer {
  /**
   * Stops taking jobs. Graceful: running jobs get the backend's drain time to finish, then any still
   * running are handed back to the queue (waiting again, no try used) for another worker. `force`: stop
   * at once, as a crash would (BullMQ takes the jobs over once their locks expire).
   */
  close(force?: boolean): Promise<void>;
}

export interface QueueBackend {
  readonly kind: 'bullmq' | 'memory';
  add<T>(queue: string, name: string, data: T, opts: AddOptions): Promise<AddResult>;
  getJob<T = unknown>(queue: string, jobId: string): Promise<JobInfo<T> | null>;
  counts(queue: string): Promise<QueueCounts>;
  /** Jobs of a queue in the given states, newest first. */
  list(queue: string, states: JobState[], limit?: number): Promise<JobInfo[]>;
  process<T>(queue: string, handler: JobHandler<T>, opts?: ConsumeOptions): Consumer;
  /** Completion events of a queue; returns an unsubscribe function. */
  on(queue: string, listener: (e: QueueEvent) => void): Promise<() => void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Throw from a handler to fail a job at once, without further retries. */
export class PermanentJobError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PermanentJobError';
  }
}

/** Delay before retry number `retry` (1-based): backoff, doubled each time. */
export function backoffDelay(backoffMs: number, retry: number): number {
  return backoffMs * 2 ** (retry - 1);
}
