import { ingestionJobId, type MessageDef } from '@ct/contracts';
import type { QueueBackend } from '@ct/queue';
import type { Queryable } from '@ct/store';
import type { Static, TSchema } from 'typebox';

/** What a tracked request row must tell: its key, whether it still waits for work, its tries so far. */
export interface TrackedRow {
  key: string;
  state: string;
  attempts: number;
}

/** The few log calls the tracker makes (a Fastify or pino logger fits). */
export interface JobsLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/**
 * One kind of tracked work: a contracts job, and the table of request rows behind it (through the
 * service's repository). The row is the truth: the job can always be rebuilt from it.
 */
export interface TrackedKind<S extends TSchema = TSchema, R extends TrackedRow = TrackedRow> {
  job: MessageDef<S>;
  queue: string;
  /** The job's data, from its row */
  data(row: R): Static<S>;
  /** Rows still waiting or running, oldest first */
  pending(limit: number): Promise<R[]>;
  /** The row as it is now, or null */
  find(key: string): Promise<R | null>;
  /**
   * Ends a row still waiting or running as failed (its job was given up on without the worker saying
   * why, or its tries are spent), with a reason a student reads; a finished row stays as it is.
   */
  giveUp(key: string): Promise<unknown>;
  /** Tries per request, counted on the row (default 3) */
  attempts?: number;
  /** First retry delay; doubles each retry */
  backoffMs?: number;
  /**
   * The queue priority of a row's job when the caller gives none (the sweep's re-enqueue): lower runs
   * first. Default: the queue's default.
   */
  priority?(row: R): number;
  /**
   * Milliseconds the row's job must still wait before it runs (its turn of the hourly AI allowance has
   * not come yet); the sweep's re-enqueue keeps the wait. Default: none.
   */
  delayMs?(row: R): number;
}

const PENDING = new Set(['queued', 'running']);

/** The rows of a request table (with `state` and `updated_at`) still waiting or running, oldest first. */
export async function pendingRows<T>(
  q: Queryable,
  table: string,
  columns: string,
  limit: number,
): Promise<T[]> {
  const r = await q.query<T>(
    `SELECT ${columns} FROM ${table} WHERE state IN ('queued', 'running') ORDER BY updated_at LIMIT $1`,
    [limit],
  );
  return r.rows;
}
const LIVE = new Set(['waiting', 'delayed', 'active']);

/**
 * Tracked background work on the queue. Services record a request row (one per key, in their own
 * repository), then call `enqueue`; the worker process runs the job and reports to the service, which
 * updates the row. Tries are counted on the row only: a job is given the tries its row has left, and the
 * sweep fails a row whose tries are spent. One sweep, at start and on a timer, gives a job back to every
 * row still waiting or running whose job the queue lost (Redis wiped, a queue down when asked).
 */
export class TrackedJobs {
  private readonly kinds: TrackedKind<TSchema, TrackedRow>[] = [];

  constructor(
    private readonly queue: QueueBackend,
    private readonly log: JobsLog,
  ) {}

  /** Adds a kind of work (before `start`). */
  track<S extends TSchema, R extends TrackedRow>(kind: TrackedKind<S, R>): TrackedKind<S, R> {
    this.kinds.push(kind as unknown as TrackedKind<TSchema, TrackedRow>);
    return kind;
  }

  /** Gives a row its job, with the tries it has left; joins the job when one is waiting or running. */
  async enqueue<S extends TSchema, R extends TrackedRow>(
    kind: TrackedKind<S, R>,
    row: R,
    requestId?: string,
    priority?: number,
    delay?: number,
  ): Promise<void> {
    const data = { ...kind.data(row), ...(requestId ? { requestId } : {}) };
    const p = priority ?? kind.priority?.(row);
    const delayMs = delay ?? kind.delayMs?.(row) ?? 0;
    await this.queue.add(kind.queue, kind.job.name, data, {
      jobId: ingestionJobId(kind.job, row.key),
      attempts: Math.max(1, (kind.attempts ?? 3) - row.attempts),
      backoffMs: kind.backoffMs ?? 1000,
      ...(p !== undefined ? { priority: p } : {}),
      ...(delayMs > 0 ? { delayMs } : {}),
    });
  }

  /**
   * `enqueue` for a row just committed: a queue that is down loses nothing (the sweep enqueues the row
   * once the queue is back), so the caller answers with the recorded request either way.
   */
  async request<S extends TSchema, R extends TrackedRow>(
    kind: TrackedKind<S, R>,
    row: R,
    requestId?: string,
    priority?: number,
    delayMs?: number,
  ): Promise<void> {
    try {
      await this.enqueue(kind, row, requestId, priority, delayMs);
    } catch (err) {
      this.log.warn(
        { err, key: row.key },
        `${kind.job.name}: request recorded; the queue is down, the sweep will enqueue it`,
      );
    }
  }

  /**
   * The one sweep: every row still waiting or running without a live job gets its job again, or, when
   * its tries are spent, ends as failed. Returns how many rows were enqueued again.
   */
  async sweep(limit = 1000): Promise<number> {
    let n = 0;
    for (const kind of this.kinds) {
      for (const row of await kind.pending(limit)) {
        const job = await this.queue.getJob(kind.queue, ingestionJobId(kind.job, row.key));
        if (job && LIVE.has(job.state)) continue;
        // The worker reports before its job completes: read again so a just-finished row is not redone.
        const fresh = await kind.find(row.key);
        if (!fresh || !PENDING.has(fresh.state)) continue;
        if (fresh.attempts >= (kind.attempts ?? 3)) await kind.giveUp(fresh.key);
        else {
          await this.enqueue(kind, fresh);
          n++;
        }
      }
    }
    return n;
  }

  /**
   * Sweeps now and every `sweepMs` (0: only now), and ends the row of a job the queue gave up on
   * without the worker saying why (it kept dying mid-job), so no student waits forever. Returns the stop.
   */
  async start(sweepMs: number): Promise<() => Promise<void>> {
    const offs = await Promise.all(
      [...new Set(this.kinds.map((k) => k.queue))].map((queue) =>
        this.queue.on(queue, (e) => {
          if (e.type !== 'failed' || !e.final) return;
          const kind = this.kinds.find((k) => k.queue === queue && e.jobId.startsWith(`${k.job.name}.`));
          if (!kind) return;
          const key = e.jobId.slice(kind.job.name.length + 1);
          void kind.giveUp(key).catch((err: unknown) => {
            this.log.warn({ err, key }, `${kind.job.name}: could not record a failed job`);
          });
        }),
      ),
    );
    const run = async () => {
      try {
        const n = await this.sweep();
        if (n) this.log.info({ requests: n }, 'requests still pending were enqueued again');
      } catch (err) {
        this.log.warn({ err }, 'could not enqueue pending requests (will try again)');
      }
    };
    await run();
    const timer = sweepMs > 0 ? setInterval(() => void run(), sweepMs) : null;
    timer?.unref();
    return async () => {
      if (timer) clearInterval(timer);
      for (const off of offs) off();
    };
  }
}
