import type { Queryable } from '@ct/store';

/** Key of the advisory lock that lets one process at a time load College Scorecard data. */
const LOAD_LOCK = 7_240_612_001;

export interface LoadRecord {
  version: string;
  kind: 'snapshot' | 'import';
  source: string;
  sha256: string | null;
  /** YYYY-MM-DD */
  released: string | null;
  colleges: number;
  ms: number;
}

/** SQL for colleges.snapshot_load: which College Scorecard data this database holds. */
export class SnapshotLoads {
  constructor(private readonly db: Queryable) {}

  /**
   * Waits for the load lock until the caller's transaction ends: replicas starting together load once,
   * the others then find the version recorded.
   */
  async lock(tx: Queryable): Promise<void> {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [LOAD_LOCK]);
  }

  async has(version: string, q: Queryable = this.db): Promise<boolean> {
    const r = await q.query('SELECT 1 FROM colleges.snapshot_load WHERE version = $1', [version]);
    return r.rows.length > 0;
  }

  /**
   * The newest official file an operator imported, if any: its government data is newer than (or as new
   * as) a snapshot released on or before its release date, and an import without a date wins over any.
   */
  async importNewerThan(released: string | null, q: Queryable = this.db): Promise<LoadRecord | null> {
    const r = await q.query<LoadRecord & { released: string | null }>(
      `SELECT version, kind, source, sha256, to_char(released, 'YYYY-MM-DD') AS released, colleges, ms
       FROM colleges.snapshot_load
       WHERE kind = 'import' AND (released IS NULL OR $1::date IS NULL OR released >= $1::date)
       ORDER BY loaded_at DESC LIMIT 1`,
      [released],
    );
    return r.rows[0] ?? null;
  }

  async record(rec: LoadRecord, q: Queryable = this.db): Promise<void> {
    await q.query(
      `INSERT INTO colleges.snapshot_load (version, kind, source, sha256, released, colleges, ms)
       VALUES ($1, $2, $3, $4, $5::date, $6, $7)
       ON CONFLICT (version) DO UPDATE SET colleges = excluded.colleges, ms = excluded.ms, loaded_at = now()`,
      [rec.version, rec.kind, rec.source, rec.sha256, rec.released, rec.colleges, rec.ms],
    );
  }

  /** Every load, newest first (for operators and tests). */
  async list(): Promise<Array<LoadRecord & { loadedAt: string }>> {
    const r = await this.db.query<LoadRecord & { loadedAt: Date | string }>(
      `SELECT version, kind, source, sha256, to_char(released, 'YYYY-MM-DD') AS released, colleges, ms,
              loaded_at AS "loadedAt"
       FROM colleges.snapshot_load ORDER BY loaded_at DESC, version`,
    );
    return r.rows.map((x) => ({ ...x, loadedAt: new Date(x.loadedAt).toISOString() }));
  }
}
