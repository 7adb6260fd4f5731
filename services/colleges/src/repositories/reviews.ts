import { normaliseCollegeName, type College } from '@ct/contracts';
import type { Queryable } from '@ct/store';

interface PrivateRow {
  id: number;
  key: string;
  requested_name: string;
  name: string;
  website: string | null;
  document: College;
  review_reason: string;
  created_at: Date | string;
  updated_at: Date | string;
}

/** A college kept private to the students who asked for it, as stored. */
export interface PrivateCollege {
  id: number;
  key: string;
  requestedName: string;
  name: string;
  website: string | null;
  document: College;
  reason: string;
  createdAt: string;
}

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();
const COLUMNS = 'id, key, requested_name, name, website, document, review_reason, created_at, updated_at';

function toPrivate(r: PrivateRow): PrivateCollege {
  return {
    id: r.id,
    key: r.key,
    requestedName: r.requested_name,
    name: r.name,
    website: r.website,
    document: { ...r.document, createdAt: iso(r.created_at), updatedAt: iso(r.updated_at) },
    reason: r.review_reason,
    createdAt: iso(r.created_at),
  };
}

/**
 * SQL for colleges kept private to the students who asked for them until an admin reviews them; the only
 * place that touches colleges.private_college and its viewers.
 */
export class ReviewRepository {
  constructor(private readonly db: Queryable) {}

  /**
   * Stores (or replaces, when the same name is gathered again) the private result of a request, visible
   * to `viewers`.
   */
  async save(
    input: {
      key: string;
      requestedName: string;
      document: College;
      website: string | null;
      reason: string;
      viewers: string[];
    },
    tx: Queryable,
  ): Promise<PrivateCollege> {
    const r = await tx.query<PrivateRow>(
      `INSERT INTO colleges.private_college (key, requested_name, name, normalized_name, website, document, review_reason)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7)
       ON CONFLICT (key) DO UPDATE SET name = excluded.name, normalized_name = excluded.normalized_name,
         website = excluded.website, document = excluded.document, review_reason = excluded.review_reason,
         updated_at = now()
       RETURNING ${COLUMNS}`,
      [
        input.key,
        input.requestedName,
        input.document.name,
        normaliseCollegeName(input.document.name),
        input.website,
        JSON.stringify(input.document),
        input.reason,
      ],
    );
    const saved = toPrivate(r.rows[0]!);
    await this.addViewers(saved.id, input.viewers, tx);
    return saved;
  }

  async addViewers(id: number, uids: string[], q: Queryable = this.db): Promise<void> {
    if (!uids.length) return;
    await q.query(
      `INSERT INTO colleges.private_college_viewer (college_id, uid) SELECT $1, u FROM unnest($2::text[]) AS u
       ON CONFLICT DO NOTHING`,
      [id, uids],
    );
  }

  /** The private result of a request, by the request's key. */
  async byKey(key: string, q: Queryable = this.db): Promise<PrivateCollege | null> {
    const r = await q.query<PrivateRow>(`SELECT ${COLUMNS} FROM colleges.private_college WHERE key = $1`, [
      key,
    ]);
    return r.rows[0] ? toPrivate(r.rows[0]) : null;
  }

  /** Locks one for an admin's decision. */
  async lock(id: number, tx: Queryable): Promise<PrivateCollege | null> {
    const r = await tx.query<PrivateRow>(
      `SELECT ${COLUMNS} FROM colleges.private_college WHERE id = $1 FOR UPDATE`,
      [id],
    );
    return r.rows[0] ? toPrivate(r.rows[0]) : null;
  }

  async viewers(id: number, q: Queryable = this.db): Promise<string[]> {
    const r = await q.query<{ uid: string }>(
      'SELECT uid FROM colleges.private_college_viewer WHERE college_id = $1 ORDER BY uid',
      [id],
    );
    return r.rows.map((x) => x.uid);
  }

  async isViewer(key: string, uid: string, q: Queryable = this.db): Promise<boolean> {
    const r = await q.query(
      `SELECT 1 FROM colleges.private_college p JOIN colleges.private_college_viewer v ON v.college_id = p.id
       WHERE p.key = $1 AND v.uid = $2`,
      [key, uid],
    );
    return r.rows.length > 0;
  }

  async delete(id: number, tx: Queryable): Promise<void> {
    await tx.query('DELETE FROM colleges.private_college WHERE id = $1', [id]);
  }

  /** The review list: oldest first, with who asked, paginated. */
  async list(
    limit: number,
    offset: number,
  ): Promise<{ total: number; rows: Array<PrivateCollege & { viewers: string[] }> }> {
    const total = await this.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM colleges.private_college',
    );
    const r = await this.db.query<PrivateRow & { viewers: string[] }>(
      `SELECT ${COLUMNS.split(', ')
        .map((c) => `p.${c}`)
        .join(', ')},
         coalesce((SELECT array_agg(v.uid ORDER BY v.uid) FROM colleges.private_college_viewer v
                   WHERE v.college_id = p.id), '{}') AS viewers
       FROM colleges.private_college p ORDER BY p.created_at, p.id LIMIT $1 OFFSET $2`,
      [limit, offset],
    );
    return {
      total: total.rows[0]?.n ?? 0,
      rows: r.rows.map((row) => ({ ...toPrivate(row), viewers: row.viewers })),
    };
  }
}
