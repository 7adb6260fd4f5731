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
}

const COLUMNS = `key, name, scorecard_id, state, stage, attempts, failure_reason, last_error, college_name,
  requested_at, updated_at`;
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
    scorecardId: r.scorecard_id,
  };
}

/** Strips the internal field before a request goes out through the API. */
export function publicRequest(r: StoredRequest): IngestionRequest {
  const { scorecardId: _sid, ...rest } = r;
  return rest;
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
  ): Promise<{ request: StoredRequest; enqueue: boolean }> {
    const inserted = await this.db.query<RequestRow>(
      `INSERT INTO colleges.ingestion_request (key, name, scorecard_id) VALUES ($1, $2, $3)
       ON CONFLICT (key) DO NOTHING RETURNING ${COLUMNS}`,
      [key, name, scorecardId],
    );
    if (inserted.rows[0]) return { request: toRequest(inserted.rows[0]), enqueue: true };
    const requeued = await this.db.query<RequestRow>(
      `UPDATE colleges.ingestion_request SET state = 'queued', stage = 'queued', failure_reason = NULL,
         last_error = NULL, attempts = 0, request_count = request_count + 1, updated_at = now(),
         finished_at = NULL, scorecard_id = coalesce($2, scorecard_id)
       WHERE key = $1 AND (
         (state = 'failed' AND updated_at < now() - make_interval(secs => $3::double precision / 1000))
         OR (state = 'done' AND college_id IS NULL))
       RETURNING ${COLUMNS}`,
      [key, scorecardId, retryFailedAfterMs],
    );
    if (requeued.rows[0]) return { request: toRequest(requeued.rows[0]), enqueue: true };
    const joined = await this.db.query<RequestRow>(
      `UPDATE colleges.ingestion_request SET request_count = request_count + 1 WHERE key = $1 RETURNING ${COLUMNS}`,
      [key],
    );
    if (!joined.rows[0]) throw new Error(`ingestion request ${key} vanished`);
    return { request: toRequest(joined.rows[0]), enqueue: false };
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

  /** Marks the request done with the college it produced (in the caller's transaction). */
  async complete(
    key: string,
    collegeId: number,
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
   * A failed try. Not final: back to queued (the queue retries after its backoff) with the error kept.
   * Final: failed, with the reason a student reads. Only a waiting or running request changes.
   */
  async fail(key: string, reason: string, final: boolean): Promise<StoredRequest | null> {
    const r = await this.db.query<RequestRow>(
      final
        ? `UPDATE colleges.ingestion_request SET state = 'failed', stage = 'failed', failure_reason = $2,
             last_error = $2, finished_at = now(), updated_at = now()
           WHERE key = $1 AND state IN ('queued', 'running') RETURNING ${COLUMNS}`
        : `UPDATE colleges.ingestion_request SET state = 'queued', stage = 'queued', last_error = $2, updated_at = now()
           WHERE key = $1 AND state IN ('queued', 'running') RETURNING ${COLUMNS}`,
      [key, reason],
    );
    return r.rows[0] ? toRequest(r.rows[0]) : null;
  }

  /** Queues a failed request again (the admin's retry). */
  async retry(key: string): Promise<StoredRequest | 'not-found' | 'not-failed'> {
    const r = await this.db.query<RequestRow>(
      `UPDATE colleges.ingestion_request SET state = 'queued', stage = 'queued', failure_reason = NULL,
         last_error = NULL, attempts = 0, finished_at = NULL, updated_at = now()
       WHERE key = $1 AND state = 'failed' RETURNING ${COLUMNS}`,
      [key],
    );
    if (r.rows[0]) return toRequest(r.rows[0]);
    return (await this.get(key)) ? 'not-failed' : 'not-found';
  }

  /** Requests still waiting or running, oldest first: their jobs are (re)enqueued at start. */
  async pending(limit: number): Promise<StoredRequest[]> {
    const r = await this.db.query<RequestRow>(
      `SELECT ${COLUMNS} FROM colleges.ingestion_request WHERE state IN ('queued', 'running')
       ORDER BY updated_at LIMIT $1`,
      [limit],
    );
    return r.rows.map(toRequest);
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
      running: running.rows.map((r) => publicRequest(toRequest(r))),
      failed: failed.rows.map((r) => publicRequest(toRequest(r))),
      totalFailed: total.rows[0]?.n ?? 0,
    };
  }
}
