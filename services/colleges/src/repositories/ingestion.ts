import { pendingRows } from '@ct/jobs';
import type { IngestionRequest, IngestionStage } from '@ct/contracts';
import type { Queryable } from '@ct/store';

interface RequestRow {
  key: string;
  name: string;
  scorecard_id: number | null;
  state: IngestionRequest['state'];
  stage: IngestionStage;
  attempts: number;
  failure_reason: string | null;
  last_error: string | null;
  college_name: string | null;
  requested_at: Date | string;
  updated_at: Date | string;
  not_before: Date | string | null;
}

const COLUMNS = `key, name, scorecard_id, state, stage, attempts, failure_reason, last_error, college_name,
  requested_at, updated_at,
  CASE WHEN state = 'queued' AND not_before > now() THEN not_before END AS not_before`;
const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();

/** A request row as the API shows it, plus the Scorecard id the job may carry. */
export type StoredRequest = IngestionRequest & { scorecardId: number | null };

function toRequest(r: RequestRow): StoredRequest {
  return {
    key: r.key,
    name: r.name,
    state: r.state,
    stage: r.stage,
    attempts: r.attempts,
    failureReason: r.failure_reason,
    lastError: r.last_error,
    collegeName: r.college_name,
    requestedAt: iso(r.requested_at),
    updatedAt: iso(r.updated_at),
    waitingUntil: r.not_before === null ? null : iso(r.not_before),
    scorecardId: r.scorecard_id,
  };
}

/** SQL for ingestion requests; the only place that touches colleges.ingestion_request. */
export class IngestionRepository {
  constructor(private readonly db: Queryable) {}

  async get(key: string, q: Queryable = this.db): Promise<StoredRequest | null> {
    const r = await q.query<RequestRow>(`SELECT ${COLUMNS} FROM colleges.ingestion_request WHERE key = $1`, [
      key,
    ]);
    return r.rows[0] ? toRequest(r.rows[0]) : null;
  }

  /** The request, locked until the caller's transaction ends (completing it is one change at a time). */
  async lock(key: string, tx: Queryable): Promise<StoredRequest | null> {
    const r = await tx.query<RequestRow>(
      `SELECT ${COLUMNS} FROM colleges.ingestion_request WHERE key = $1 FOR UPDATE`,
      [key],
    );
    return r.rows[0] ? toRequest(r.rows[0]) : null;
  }

  /**
   * Records that a student asked (once per student and name; asking again only updates the time).
   * Returns true when this student had not asked for this name before.
   */
  async recordRequester(
    key: string,
    uid: string,
    kind: 'new-name' | 'joined' | 'enrichment',
    q: Queryable = this.db,
  ): Promise<boolean> {
    const r = await q.query<{ inserted: boolean }>(
      `INSERT INTO colleges.ingestion_requester (key, uid, kind) VALUES ($1, $2, $3)
       ON CONFLICT (key, uid) DO UPDATE SET last_at = now()
       RETURNING (xmax = 0) AS inserted`,
      [key, uid, kind],
    );
    return r.rows[0]?.inserted ?? false;
  }

  /** True when this student asked for this name before. */
  async hasRequester(key: string, uid: string, q: Queryable = this.db): Promise<boolean> {
    const r = await q.query('SELECT 1 FROM colleges.ingestion_requester WHERE key = $1 AND uid = $2', [
      key,
      uid,
    ]);
    return r.rows.length > 0;
  }

  /** New names (unknown to the cache) a student asked for in the last 24 hours. */
  newNamesToday(uid: string, q: Queryable = this.db): Promise<number> {
    return this.requestsToday(uid, 'new-name', q);
  }

  /** Cached colleges whose facts a student's searches had gathered in the last 24 hours (AI work). */
  enrichmentsToday(uid: string, q: Queryable = this.db): Promise<number> {
    return this.requestsToday(uid, 'enrichment', q);
  }

  /** A student's requests of one kind in the last 24 hours: what the per-student quotas count. */
  private async requestsToday(uid: string, kind: string, q: Queryable): Promise<number> {
    const r = await q.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM colleges.ingestion_requester
       WHERE uid = $1 AND kind = $2 AND first_at > now() - interval '1 day'`,
      [uid, kind],
    );
    return r.rows[0]?.n ?? 0;
  }

  /**
   * Requests a student asked for that still wait or run, other than `key`: how far back in the queue
   * their next one goes (fair scheduling, see `queuePriority` in `use-cases/record-request.ts`).
   */
  async pendingFor(uid: string, key: string, q: Queryable = this.db): Promise<number> {
    const r = await q.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM colleges.ingestion_requester r
       JOIN colleges.ingestion_request q ON q.key = r.key
       WHERE r.uid = $1 AND r.key <> $2 AND q.state IN ('queued', 'running')`,
      [uid, key],
    );
    return r.rows[0]?.n ?? 0;
  }

  /**
   * The students who asked for a name, first asker first; with `sinceRequested`, only those who asked
   * since the request was last queued (the students this very answer was gathered for).
   */
  async requesters(
    key: string,
    q: Queryable = this.db,
    opts: { sinceRequested?: boolean } = {},
  ): Promise<string[]> {
    const r = await q.query<{ uid: string }>(
      `SELECT q.uid FROM colleges.ingestion_requester q JOIN colleges.ingestion_request r ON r.key = q.key
       WHERE q.key = $1 AND (NOT $2 OR q.last_at >= r.requested_at)
       ORDER BY q.first_at, q.uid`,
      [key, opts.sinceRequested ?? false],
    );
    return r.rows.map((x) => x.uid);
  }

  /**
   * An admin deleted what this request produced: it is shown as failed with the reason, and not gathered
   * again when asked (the admin's retry clears this).
   */
  async markRemovedByAdmin(
    keys: string[],
    collegeId: number | null,
    reason: string,
    q: Queryable,
  ): Promise<void> {
    await q.query(
      `UPDATE colleges.ingestion_request SET state = 'failed', stage = 'failed', failure_reason = $3,
         last_error = NULL, college_id = NULL, college_name = NULL, removed_by_admin_at = now(),
         finished_at = now(), updated_at = now()
       WHERE key = ANY($1::text[]) OR ($2::bigint IS NOT NULL AND college_id = $2)`,
      [keys, collegeId, reason],
    );
  }

  /** Points requests at another college (a merge, an approval): their names keep finding it. */
  async repoint(
    fromKeys: string[],
    fromCollegeId: number | null,
    to: { id: number; name: string },
    q: Queryable,
  ): Promise<void> {
    await q.query(
      `UPDATE colleges.ingestion_request SET state = 'done', stage = 'done', college_id = $3, college_name = $4,
         failure_reason = NULL, removed_by_admin_at = NULL, updated_at = now()
       WHERE key = ANY($1::text[]) OR ($2::bigint IS NOT NULL AND college_id = $2)`,
      [fromKeys, fromCollegeId, to.id, to.name],
    );
  }

  /**
   * Records a student's request. The first request for a key inserts the row (`enqueue`: true); later
   * ones join it. A failed request older than `retryFailedAfterMs`, or a finished one whose college is
   * gone, is queued again (`enqueue`: true). Safe under any number of concurrent calls: one row, one
   * `enqueue`.
   */
  async request(
    key: string,
    name: string,
    scorecardId: number | null,
    retryFailedAfterMs: number,
    opts: { requeueDone?: boolean; q?: Queryable } = {},
  ): Promise<{ request: StoredRequest; enqueue: boolean }> {
    const q = opts.q ?? this.db;
    const inserted = await q.query<RequestRow>(
      `INSERT INTO colleges.ingestion_request (key, name, scorecard_id) VALUES ($1, $2, $3)
       ON CONFLICT (key) DO NOTHING RETURNING ${COLUMNS}`,
      [key, name, scorecardId],
    );
    if (inserted.rows[0]) return { request: toRequest(inserted.rows[0]), enqueue: true };
    // Gathered again: a failure shown long enough, a finished request whose college is gone (unless an
    // admin removed it, or it is kept privately for review), and with `requeueDone` (a cached college
    // still without its facts) a finished request as old as a failure shown long enough.
    const requeued = await q.query<RequestRow>(
      `UPDATE colleges.ingestion_request r SET state = 'queued', stage = 'queued', failure_reason = NULL,
         last_error = NULL, attempts = 0, request_count = request_count + 1, updated_at = now(),
         not_before = NULL,
         requested_at = now(),
         finished_at = NULL, scorecard_id = coalesce($2, scorecard_id)
       WHERE key = $1 AND removed_by_admin_at IS NULL AND (
         (state = 'failed' AND updated_at < now() - make_interval(secs => $3::double precision / 1000))
         OR (state = 'done' AND college_id IS NULL
             AND NOT EXISTS (SELECT 1 FROM colleges.private_college p WHERE p.key = r.key))
         OR ($4 AND state = 'done'
             AND updated_at < now() - make_interval(secs => $3::double precision / 1000)))
       RETURNING ${COLUMNS}`,
      [key, scorecardId, retryFailedAfterMs, opts.requeueDone ?? false],
    );
    if (requeued.rows[0]) return { request: toRequest(requeued.rows[0]), enqueue: true };
    const joined = await q.query<RequestRow>(
      `UPDATE colleges.ingestion_request SET request_count = request_count + 1 WHERE key = $1 RETURNING ${COLUMNS}`,
      [key],
    );
    if (!joined.rows[0]) throw new Error(`ingestion request ${key} vanished`);
    return { request: toRequest(joined.rows[0]), enqueue: false };
  }

  /** A request booked into a later hour of the AI allowance: its job waits until `hour`. */
  async waitUntil(key: string, hour: Date, q: Queryable): Promise<StoredRequest | null> {
    const r = await q.query<RequestRow>(
      `UPDATE colleges.ingestion_request SET not_before = $2 WHERE key = $1 RETURNING ${COLUMNS}`,
      [key, hour],
    );
    return r.rows[0] ? toRequest(r.rows[0]) : null;
  }

  /** A worker takes the request: running, one more attempt. Null when it is not waiting or running. */
  async start(key: string): Promise<StoredRequest | null> {
    const r = await this.db.query<RequestRow>(
      `UPDATE colleges.ingestion_request SET state = 'running', stage = 'government-data',
         attempts = attempts + 1, started_at = now(), updated_at = now()
       WHERE key = $1 AND state IN ('queued', 'running') RETURNING ${COLUMNS}`,
      [key],
    );
    return r.rows[0] ? toRequest(r.rows[0]) : null;
  }

  async stage(key: string, stage: IngestionStage): Promise<StoredRequest | null> {
    const r = await this.db.query<RequestRow>(
      `UPDATE colleges.ingestion_request SET stage = $2, updated_at = now()
       WHERE key = $1 AND state = 'running' RETURNING ${COLUMNS}`,
      [key, stage],
    );
    return r.rows[0] ? toRequest(r.rows[0]) : null;
  }

  /**
   * Marks the request done with the college it produced (in the caller's transaction); a null id for a
   * college kept privately for review.
   */
  async complete(
    key: string,
    collegeId: number | null,
    collegeName: string,
    q: Queryable,
  ): Promise<StoredRequest | null> {
    const r = await q.query<RequestRow>(
      `UPDATE colleges.ingestion_request SET state = 'done', stage = 'done', college_id = $2, college_name = $3,
         failure_reason = NULL, last_error = NULL, finished_at = now(), updated_at = now()
       WHERE key = $1 RETURNING ${COLUMNS}`,
      [key, collegeId, collegeName],
    );
    return r.rows[0] ? toRequest(r.rows[0]) : null;
  }

  /**
   * A failed try. Final (the worker says so, or the row's tries are spent: `maxAttempts`): failed, with
   * the reason a student reads. Otherwise back to queued (the queue retries after its backoff) with the
   * error kept. Only a waiting or running request changes.
   */
  async fail(key: string, reason: string, final: boolean, maxAttempts = 0): Promise<StoredRequest | null> {
    const r = await this.db.query<RequestRow>(
      `UPDATE colleges.ingestion_request SET last_error = $2, updated_at = now(),
         state = CASE WHEN $3 OR attempts >= $4 THEN 'failed' ELSE 'queued' END,
         stage = CASE WHEN $3 OR attempts >= $4 THEN 'failed' ELSE 'queued' END,
         failure_reason = CASE WHEN $3 OR attempts >= $4 THEN $2 ELSE failure_reason END,
         finished_at = CASE WHEN $3 OR attempts >= $4 THEN now() ELSE finished_at END
       WHERE key = $1 AND state IN ('queued', 'running') RETURNING ${COLUMNS}`,
      [key, reason, final, maxAttempts || 2 ** 31 - 1],
    );
    return r.rows[0] ? toRequest(r.rows[0]) : null;
  }

  /** Queues a failed request again (the admin's retry). */
  async retry(key: string): Promise<StoredRequest | 'not-found' | 'not-failed'> {
    const r = await this.db.query<RequestRow>(
      `UPDATE colleges.ingestion_request SET state = 'queued', stage = 'queued', failure_reason = NULL,
         last_error = NULL, attempts = 0, finished_at = NULL, removed_by_admin_at = NULL, updated_at = now()
       WHERE key = $1 AND state = 'failed' RETURNING ${COLUMNS}`,
      [key],
    );
    if (r.rows[0]) return toRequest(r.rows[0]);
    return (await this.get(key)) ? 'not-failed' : 'not-found';
  }

  /** Requests still waiting or running, oldest first: their jobs are (re)enqueued at start. */
  async pending(limit: number): Promise<StoredRequest[]> {
    return (await pendingRows<RequestRow>(this.db, 'colleges.ingestion_request', COLUMNS, limit)).map(
      toRequest,
    );
  }

  /** Requests in progress and failed ones (newest first, paginated) for the admin view. */
  async overview(limit: number, offset: number) {
    const running = await this.db.query<RequestRow>(
      `SELECT ${COLUMNS} FROM colleges.ingestion_request WHERE state IN ('queued', 'running')
       ORDER BY requested_at LIMIT $1`,
      [limit],
    );
    const failed = await this.db.query<RequestRow>(
      `SELECT ${COLUMNS} FROM colleges.ingestion_request WHERE state = 'failed'
       ORDER BY updated_at DESC, key LIMIT $1 OFFSET $2`,
      [limit, offset],
    );
    const total = await this.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM colleges.ingestion_request WHERE state = 'failed'`,
    );
    return {
      running: running.rows.map(toRequest),
      failed: failed.rows.map(toRequest),
      totalFailed: total.rows[0]?.n ?? 0,
    };
  }
}
