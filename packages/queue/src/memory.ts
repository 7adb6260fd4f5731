import { EventEmitter } from 'node:events';
import {
  clampPriority,
  backoffDelay,
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
  type QueueLimiter,
} from './contract.ts';

interface MemJob {
  id: string;
  name: string;
  data: unknown;
  state: JobState;
  attemptsMade: number;
  attempts: number;
  backoffMs: number;
  failedReason: string | null;
  returnValue: unknown;
  seq: number;
  priority: number;
  timer?: NodeJS.Timeout;
  abort?: AbortController;
}

interface MemQueue {
  jobs: Map<string, MemJob>;
  waiting: string[];
  consumers: Set<MemConsumer>;
  /** The limiter's current window: when it ends and how many jobs started in it */
  window?: { until: number; started: number };
  /** Pumps again when a full window ends */
  wake?: NodeJS.Timeout | undefined;
}

class MemConsumer implements Consumer {
  running = 0;
  closed = false;
  readonly active = new Set<MemJob>();
  private idle: Array<() => void> = [];
  constructor(
    private readonly backend: MemoryQueue,
    readonly queue: string,
    readonly handler: JobHandler,
    readonly concurrency: number,
    readonly limiter: QueueLimiter | undefined,
  ) {}
  settle() {
    if (this.running === 0) for (const f of this.idle.splice(0)) f();
  }
  async close(force = false): Promise<void> {
    this.closed = true;
    this.backend.detach(this);
    if (force || this.running === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const drained = await Promise.race([
      new Promise<true>((resolve) => this.idle.push(() => resolve(true))),
      new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), this.backend.drainMs);
      }),
    ]);
    clearTimeout(timer);
    if (!drained) for (const job of [...this.active]) this.backend.handBack(this.queue, job);
  }
}

/**
 * In-process queue with the same contract as the BullMQ one. It lives as long as the process: the
 * database rows that requested the jobs are the source of truth and re-enqueue them at start.
 */
export class MemoryQueue implements QueueBackend {
  readonly kind = 'memory' as const;
  private readonly queues = new Map<string, MemQueue>();
  private readonly events = new EventEmitter();
  private seq = 0;
  private closed = false;
  /**
   * @param keepFinished finished jobs kept for state lookups, per queue
   * @param drainMs how long a graceful consumer close lets running jobs finish before handing them back
   */
  constructor(
    private readonly keepFinished = 1000,
    readonly drainMs = 20_000,
  ) {
    this.events.setMaxListeners(0);
  }

  /** Puts a running job back in the wait list (no try used) and tells its handler to stop. */
  handBack(queue: string, job: MemJob): void {
    if (job.state !== 'active') return;
    job.abort?.abort();
    job.state = 'waiting';
    const q = this.q(queue);
    q.waiting.unshift(job.id);
    for (const c of q.consumers) c.active.delete(job);
    this.pump(queue);
  }

  /** Puts a job in the wait list after every job of its priority or a higher one (lower number). */
  private wait(q: MemQueue, job: MemJob): void {
    const at = q.waiting.findIndex((id) => (q.jobs.get(id)?.priority ?? 0) > job.priority);
    if (at < 0) q.waiting.push(job.id);
    else q.waiting.splice(at, 0, job.id);
  }

  private q(name: string): MemQueue {
    let q = this.queues.get(name);
    if (!q) {
      q = { jobs: new Map(), waiting: [], consumers: new Set() };
      this.queues.set(name, q);
    }
    return q;
  }

  async add<T>(queue: string, name: string, data: T, opts: AddOptions): Promise<AddResult> {
    if (this.closed) throw new Error('queue is closed');
    const q = this.q(queue);
    const existing = q.jobs.get(opts.jobId);
    if (existing && existing.state !== 'completed' && existing.state !== 'failed') {
      return { jobId: opts.jobId, added: false };
    }
    const job: MemJob = {
      id: opts.jobId,
      name,
      data: structuredClone(data),
      state: 'waiting',
      attemptsMade: 0,
      attempts: Math.max(1, opts.attempts ?? 3),
      backoffMs: opts.backoffMs ?? 1000,
      failedReason: null,
      returnValue: undefined,
      seq: ++this.seq,
      priority: clampPriority(opts.priority),
    };
    q.jobs.set(job.id, job);
    if (opts.delayMs && opts.delayMs > 0) {
      // Not before its time: delayed, then in the wait list like a retry whose backoff has passed.
      job.state = 'delayed';
      job.timer = setTimeout(() => {
        job.timer = undefined;
        if (this.closed) return;
        job.state = 'waiting';
        this.wait(this.q(queue), job);
        this.pump(queue);
      }, opts.delayMs);
      job.timer.unref();
      return { jobId: job.id, added: true };
    }
    this.wait(q, job);
    this.pump(queue);
    return { jobId: job.id, added: true };
  }

  async getJob<T>(queue: string, jobId: string): Promise<JobInfo<T> | null> {
    const j = this.q(queue).jobs.get(jobId);
    return j ? this.info<T>(j) : null;
  }

  private info<T>(j: MemJob): JobInfo<T> {
    return {
      id: j.id,
      name: j.name,
      data: j.data as T,
      state: j.state,
      attemptsMade: j.attemptsMade,
      failedReason: j.failedReason,
      returnValue: j.returnValue,
    };
  }

  async counts(queue: string): Promise<QueueCounts> {
    const c: QueueCounts = { waiting: 0, delayed: 0, active: 0, completed: 0, failed: 0 };
    for (const j of this.q(queue).jobs.values()) if (j.state !== 'lost') c[j.state]++;
    return c;
  }

  async list(queue: string, states: JobState[], limit = 100): Promise<JobInfo[]> {
    return [...this.q(queue).jobs.values()]
      .filter((j) => states.includes(j.state))
      .sort((a, b) => b.seq - a.seq)
      .slice(0, limit)
      .map((j) => this.info(j));
  }

  process<T>(queue: string, handler: JobHandler<T>, opts: ConsumeOptions = {}): Consumer {
    const c = new MemConsumer(
      this,
      queue,
      handler as JobHandler,
      Math.max(1, opts.concurrency ?? 1),
      opts.limiter,
    );
    this.q(queue).consumers.add(c);
    this.pump(queue);
    return c;
  }

  detach(c: MemConsumer) {
    this.q(c.queue).consumers.delete(c);
  }

  async on(queue: string, listener: (e: QueueEvent) => void): Promise<() => void> {
    const wrapped = (e: QueueEvent) => {
      if (e.queue === queue) listener(e);
    };
    this.events.on('event', wrapped);
    return () => this.events.off('event', wrapped);
  }

  async ping(): Promise<void> {
    if (this.closed) throw new Error('queue is closed');
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const q of this.queues.values()) {
      clearTimeout(q.wake);
      for (const j of q.jobs.values()) if (j.timer) clearTimeout(j.timer);
      for (const c of q.consumers) await c.close(true);
    }
  }

  private pump(queue: string) {
    const q = this.q(queue);
    for (const c of q.consumers) {
      while (!c.closed && c.running < c.concurrency) {
        while (q.waiting.length && q.jobs.get(q.waiting[0]!)?.state !== 'waiting') q.waiting.shift();
        if (!q.waiting.length || !this.admit(queue, q, c.limiter)) break;
        void this.run(queue, c, q.jobs.get(q.waiting.shift()!)!);
      }
    }
  }

  /** Counts one start against the queue's limiter window; false (and a wake-up later) when it is full. */
  private admit(queue: string, q: MemQueue, limiter: QueueLimiter | undefined): boolean {
    if (!limiter) return true;
    const now = Date.now();
    if (!q.window || now >= q.window.until) q.window = { until: now + limiter.durationMs, started: 0 };
    if (q.window.started < limiter.max) {
      q.window.started++;
      return true;
    }
    if (!q.wake && !this.closed) {
      q.wake = setTimeout(() => {
        q.wake = undefined;
        this.pump(queue);
      }, q.window.until - now);
      q.wake.unref();
    }
    return false;
  }

  private async run(queue: string, c: MemConsumer, job: MemJob) {
    job.state = 'active';
    const abort = new AbortController();
    job.abort = abort;
    c.running++;
    c.active.add(job);
    try {
      const result = await c.handler({
        id: job.id,
        name: job.name,
        data: structuredClone(job.data),
        attemptsMade: job.attemptsMade,
        attempts: job.attempts,
        signal: abort.signal,
      });
      // Handed back while running: the next run owns the outcome.
      if (abort.signal.aborted) return;
      job.attemptsMade++;
      job.state = 'completed';
      job.returnValue = result;
      this.emit({
        type: 'completed',
        queue,
        jobId: job.id,
        final: true,
        failedReason: null,
        returnValue: result,
      });
    } catch (err) {
      if (abort.signal.aborted) return;
      job.attemptsMade++;
      job.failedReason = err instanceof Error ? err.message : String(err);
      const permanent =
        err instanceof PermanentJobError || (err instanceof Error && err.name === 'PermanentJobError');
      const final = permanent || job.attemptsMade >= job.attempts;
      if (final) {
        job.state = 'failed';
      } else {
        job.state = 'delayed';
        job.timer = setTimeout(
          () => {
            job.timer = undefined;
            if (this.closed) return;
            job.state = 'waiting';
            this.wait(this.q(queue), job);
            this.pump(queue);
          },
          backoffDelay(job.backoffMs, job.attemptsMade),
        );
        job.timer.unref();
      }
      this.emit({
        type: 'failed',
        queue,
        jobId: job.id,
        final,
        failedReason: job.failedReason,
        returnValue: undefined,
      });
    } finally {
      c.running--;
      c.active.delete(job);
      c.settle();
      this.trim(queue);
      this.pump(queue);
    }
  }

  private emit(e: QueueEvent) {
    this.events.emit('event', e);
  }

  private trim(queue: string) {
    const q = this.q(queue);
    const finished = [...q.jobs.values()].filter((j) => j.state === 'completed' || j.state === 'failed');
    if (finished.length <= this.keepFinished) return;
    finished.sort((a, b) => a.seq - b.seq);
    for (const j of finished.slice(0, finished.length - this.keepFinished)) q.jobs.delete(j.id);
  }
}
