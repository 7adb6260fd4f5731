import { Queue, QueueEvents, UnrecoverableError, Worker, type Job } from 'bullmq';
import { Redis, type RedisOptions } from 'ioredis';
import {
  clampPriority,
  DEFAULT_PRIORITY,
  PermanentJobError,
  type AddOptions,
  type AddResult,
  type ConsumeOptions,
  type Consumer,
  type JobHandler,
  type JobInfo,
  type JobState,
  type QueueBackend,
  type QueueCounts,
  type QueueEvent,
} from './contract.ts';

export interface BullOptions {
  url: string;
  /** Key prefix, so several deployments or test runs can share one Redis. */
  prefix?: string;
  /** How long a worker holds a job lock; a crashed worker's job is taken over after about this long. */
  lockDurationMs?: number;
  /** How often workers look for stalled jobs. */
  stalledIntervalMs?: number;
  /** How many times a stalled job is taken over before it fails. */
  maxStalledCount?: number;
  keepCompleted?: number;
  keepFailed?: number;
  /**
   * Graceful close: how long running jobs get to finish before they are handed back to the queue for
   * another worker (default 20 s). Keep it under the platform's termination grace period.
   */
  drainMs?: number;
}

const FINISHED: ReadonlySet<string> = new Set(['completed', 'failed']);

function toState(s: string): JobState {
  if (s === 'wait' || s === 'waiting' || s === 'prioritized' || s === 'waiting-children') return 'waiting';
  if (s === 'delayed' || s === 'active' || s === 'completed' || s === 'failed') return s;
  // 'unknown': the job's hash survived but no list holds it (keys lost): it would never run.
  return 'lost';
}

/** BullMQ implementation of the queue contract. The database stays the source of truth. */
export class BullQueue implements QueueBackend {
  readonly kind = 'bullmq' as const;
  private readonly queues = new Map<string, Queue>();
  private readonly queueEvents = new Map<string, QueueEvents>();
  private readonly consumers = new Set<Consumer>();
  private readonly connection: Redis;
  private readonly prefix: string;

  constructor(private readonly opts: BullOptions) {
    this.prefix = opts.prefix ?? 'ct';
    // Adding jobs, reading them and readiness pings fail at once while Redis is unreachable (the caller
    // answers 503) instead of waiting in ioredis' offline queue for as long as the outage lasts.
    this.connection = this.newConnection({ enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  }

  private newConnection(over: RedisOptions = {}): Redis {
    const options: RedisOptions = {
      maxRetriesPerRequest: null,
      enableReadyCheck: true,
      lazyConnect: false,
      ...over,
    };
    const c = new Redis(this.opts.url, options);
    // Reconnection is automatic; an unhandled 'error' would crash the process while Redis restarts.
    c.on('error', () => {});
    return c;
  }

  private queue(name: string): Queue {
    let q = this.queues.get(name);
    if (!q) {
      q = new Queue(name, { connection: this.connection, prefix: this.prefix });
      q.on('error', () => {});
      this.queues.set(name, q);
    }
    return q;
  }

  async add<T>(queue: string, name: string, data: T, opts: AddOptions): Promise<AddResult> {
    const q = this.queue(queue);
    const existing = await q.getJob(opts.jobId);
    if (existing) {
      const state = await existing.getState();
      if (!FINISHED.has(state) && state !== 'unknown') return { jobId: opts.jobId, added: false };
      // A finished job with the same id would swallow the new one: replace it.
      await existing.remove().catch(() => {});
    }
    await q.add(name, data, {
      jobId: opts.jobId,
      attempts: Math.max(1, opts.attempts ?? 3),
      backoff: { type: 'exponential', delay: opts.backoffMs ?? 1000 },
      // The highest priority goes on the plain wait list (BullMQ takes it before any prioritized job, first
      // come first served, and KEDA counts it: the students waiting); the others wait in BullMQ's
      // prioritized set, lowest number first.
      ...(clampPriority(opts.priority) > DEFAULT_PRIORITY ? { priority: clampPriority(opts.priority) } : {}),
      ...(opts.delayMs && opts.delayMs > 0 ? { delay: Math.round(opts.delayMs) } : {}),
      removeOnComplete: { count: this.opts.keepCompleted ?? 1000 },
      removeOnFail: { count: this.opts.keepFailed ?? 5000 },
    });
    return { jobId: opts.jobId, added: true };
  }

  private async info<T>(job: Job, knownState?: string): Promise<JobInfo<T>> {
    return {
      id: String(job.id),
      name: job.name,
      data: job.data as T,
      state: toState(knownState ?? (await job.getState())),
      attemptsMade: job.attemptsMade,
      failedReason: job.failedReason || null,
      returnValue: job.returnvalue,
    };
  }

  async getJob<T>(queue: string, jobId: string): Promise<JobInfo<T> | null> {
    // State first, then the job's hash: a job that fails in between would otherwise read as failed with
    // the fields (failedReason, attemptsMade) of before its failure. BullMQ moves a job and writes those
    // fields in one script, so a hash read after the state is at least as new as the state.
    const q = this.queue(queue);
    const state = await q.getJobState(jobId);
    const job = await q.getJob(jobId);
    return job ? this.info<T>(job, state) : null;
  }

  async counts(queue: string): Promise<QueueCounts> {
    const c = await this.queue(queue).getJobCounts(
      'wait',
      'prioritized',
      'delayed',
      'active',
      'completed',
      'failed',
    );
    return {
      waiting: (c.wait ?? 0) + (c.prioritized ?? 0),
      delayed: c.delayed ?? 0,
      active: c.active ?? 0,
      completed: c.completed ?? 0,
      failed: c.failed ?? 0,
    };
  }

  /** Every queue BullMQ has used under this prefix (found by its events stream), for the operators. */
  async queueNames(): Promise<string[]> {
    // This connection fails commands at once while it is not connected: wait for it, as BullMQ's own do.
    if (this.connection.status !== 'ready') await new Promise((r) => this.connection.once('ready', r));
    const names = new Set<string>();
    let cursor = '0';
    do {
      const [next, keys] = await this.connection.scan(
        cursor,
        'MATCH',
        `${this.prefix}:*:events`,
        'COUNT',
        500,
      );
      cursor = next;
      for (const k of keys) names.add(k.slice(this.prefix.length + 1, -':events'.length));
    } while (cursor !== '0');
    return [...names];
  }

  /** The BullMQ queue itself, for tools that speak BullMQ (the operators' dashboard, bull-board). */
  bullmq(name: string): Queue {
    return this.queue(name);
  }

  async list(queue: string, states: JobState[], limit = 100): Promise<JobInfo[]> {
    // Jobs with a priority wait in BullMQ's `prioritized` set; a lost job is in no list at all.
    const types = states.flatMap((s) =>
      s === 'waiting' ? (['wait', 'prioritized'] as const) : s === 'lost' ? [] : [s],
    );
    const jobs = await this.queue(queue).getJobs(types, 0, limit - 1, false);
    return Promise.all(jobs.filter(Boolean).map((j) => this.info(j)));
  }

  process<T>(queue: string, handler: JobHandler<T>, opts: ConsumeOptions = {}): Consumer {
    const connection = this.newConnection();
    // Jobs this consumer is running, with the lock token needed to hand them back on shutdown.
    const running = new Map<string, { job: Job; token: string | undefined; abort: AbortController }>();
    const worker = new Worker(
      queue,
      async (job: Job, token?: string) => {
        const abort = new AbortController();
        const id = String(job.id);
        running.set(id, { job, token, abort });
        try {
          return await handler({
            id,
            name: job.name,
            data: job.data as T,
            attemptsMade: job.attemptsMade,
            attempts: job.opts.attempts ?? 1,
            signal: abort.signal,
          });
        } catch (err) {
          if (
            err instanceof PermanentJobError ||
            (err instanceof Error && err.name === 'PermanentJobError')
          ) {
            throw new UnrecoverableError(err.message);
          }
          throw err;
        } finally {
          running.delete(id);
        }
      },
      {
        connection,
        prefix: this.prefix,
        concurrency: Math.max(1, opts.concurrency ?? 1),
        ...(opts.limiter ? { limiter: { max: opts.limiter.max, duration: opts.limiter.durationMs } } : {}),
        lockDuration: this.opts.lockDurationMs ?? 30_000,
        // A crashed worker's jobs are found about one lock length after it died.
        stalledInterval: this.opts.stalledIntervalMs ?? this.opts.lockDurationMs ?? 30_000,
        maxStalledCount: this.opts.maxStalledCount ?? 2,
      },
    );
    worker.on('error', () => {});
    const drainMs = this.opts.drainMs ?? 20_000;
    const consumer: Consumer = {
      close: async (force = false) => {
        this.consumers.delete(consumer);
        if (force) {
          await worker.close(true);
        } else {
          let timer: NodeJS.Timeout | undefined;
          const drained = await Promise.race([
            worker.close(false).then(() => true),
            new Promise<false>((resolve) => {
              timer = setTimeout(() => resolve(false), drainMs);
            }),
          ]);
          clearTimeout(timer);
          if (!drained) {
            // Out of time: put the unfinished jobs back at the head of the wait list (no try used) so the
            // next worker starts them now instead of after their locks expire.
            await Promise.all(
              [...running.values()].map(async ({ job, token, abort }) => {
                // Move first: that releases the lock, so the handler's end (it throws once aborted) can
                // no longer be recorded as a failed try.
                await job.moveToWait(token).catch(() => {});
                abort.abort();
              }),
            );
            running.clear();
          }
        }
        await connection.quit().catch(() => {});
      },
    };
    this.consumers.add(consumer);
    return consumer;
  }

  async on(queue: string, listener: (e: QueueEvent) => void): Promise<() => void> {
    let qe = this.queueEvents.get(queue);
    if (!qe) {
      qe = new QueueEvents(queue, { connection: this.newConnection(), prefix: this.prefix });
      qe.on('error', () => {});
      this.queueEvents.set(queue, qe);
      await qe.waitUntilReady();
    }
    const onCompleted = ({ jobId, returnvalue }: { jobId: string; returnvalue: unknown }) =>
      listener({
        type: 'completed',
        queue,
        jobId,
        final: true,
        failedReason: null,
        returnValue: returnvalue,
      });
    const onFailed = async ({ jobId, failedReason }: { jobId: string; failedReason: string }) => {
      const job = await this.queue(queue).getJob(jobId);
      const final = job ? (await job.getState()) === 'failed' : true;
      listener({ type: 'failed', queue, jobId, final, failedReason, returnValue: undefined });
    };
    qe.on('completed', onCompleted);
    qe.on('failed', onFailed);
    return () => {
      qe.off('completed', onCompleted);
      qe.off('failed', onFailed);
    };
  }

  async ping(): Promise<void> {
    await this.connection.ping();
  }

  async close(): Promise<void> {
    await Promise.all([...this.consumers].map((c) => c.close()));
    await Promise.all([...this.queueEvents.values()].map((qe) => qe.close()));
    await Promise.all([...this.queues.values()].map((q) => q.close()));
    await this.connection.quit().catch(() => {});
  }
}
