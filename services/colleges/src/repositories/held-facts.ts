import type { College, FactReview, HeldFactKind, UnverifiedFact } from '@ct/contracts';
import { HELD_FACT_LABELS, heldFactLines, officialWebsiteOf, type HeldFact } from '@ct/providers';
import type { Queryable } from '@ct/store';

interface HeldRow {
  id: number;
  college_id: number;
  kind: HeldFactKind;
  value: unknown;
  source_url: string | null;
  reason: string;
  created_at: Date | string;
}

/** A held fact as stored, with the college it is about. */
export interface StoredHeldFact extends HeldFact {
  id: number;
  collegeId: number;
  createdAt: string;
}

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();
const COLUMNS = 'h.id, h.college_id, h.kind, h.value, h.source_url, h.reason, h.created_at';

function toHeld(r: HeldRow): StoredHeldFact {
  return {
    id: Number(r.id),
    collegeId: Number(r.college_id),
    kind: r.kind,
    value: r.value,
    sourceUrl: r.source_url,
    reason: r.reason,
    createdAt: iso(r.created_at),
  };
}

/** A held fact as the student who asked sees it on the card. */
export function unverifiedView(f: StoredHeldFact): UnverifiedFact {
  return {
    id: f.id,
    kind: f.kind,
    label: HELD_FACT_LABELS[f.kind],
    items: heldFactLines(f.kind, f.value),
    sourceUrl: f.sourceUrl,
    reason: f.reason,
  };
}

/**
 * SQL for facts about shared colleges held for review (ADR 0070); the only place that touches
 * colleges.held_fact and its viewers.
 */
export class HeldFactRepository {
  constructor(private readonly db: Queryable) {}

  /**
   * Holds an answer's facts for a college, visible to `viewers` only. A kind held already takes the new
   * value (the newest answer) and keeps its students.
   */
  async hold(
    collegeId: number,
    requestKey: string,
    facts: readonly HeldFact[],
    viewers: readonly string[],
    tx: Queryable,
  ): Promise<void> {
    for (const f of facts) {
      const r = await tx.query<{ id: number }>(
        `INSERT INTO colleges.held_fact (college_id, kind, value, source_url, reason, request_key)
         VALUES ($1, $2, $3::jsonb, $4, $5, $6)
         ON CONFLICT (college_id, kind) DO UPDATE SET value = excluded.value, source_url = excluded.source_url,
           reason = excluded.reason, request_key = excluded.request_key, updated_at = now()
         RETURNING id`,
        [collegeId, f.kind, JSON.stringify(f.value ?? null), f.sourceUrl, f.reason, requestKey],
      );
      if (viewers.length) {
        await tx.query(
          `INSERT INTO colleges.held_fact_viewer (fact_id, uid) SELECT $1, u FROM unnest($2::text[]) AS u
           ON CONFLICT DO NOTHING`,
          [r.rows[0]!.id, viewers],
        );
      }
    }
  }

  /** The facts about a college that one student sees (their request gathered them). */
  async forViewer(collegeId: number, uid: string, q: Queryable = this.db): Promise<StoredHeldFact[]> {
    const r = await q.query<HeldRow>(
      `SELECT ${COLUMNS} FROM colleges.held_fact h
       JOIN colleges.held_fact_viewer v ON v.fact_id = h.id AND v.uid = $2
       WHERE h.college_id = $1 ORDER BY h.id`,
      [collegeId, uid],
    );
    return r.rows.map(toHeld);
  }

  /** One held fact, locked for an admin's decision. */
  async lock(id: number, tx: Queryable): Promise<StoredHeldFact | null> {
    const r = await tx.query<HeldRow>(
      `SELECT ${COLUMNS} FROM colleges.held_fact h WHERE h.id = $1 FOR UPDATE`,
      [id],
    );
    return r.rows[0] ? toHeld(r.rows[0]) : null;
  }

  async delete(id: number, tx: Queryable): Promise<void> {
    await tx.query('DELETE FROM colleges.held_fact WHERE id = $1', [id]);
  }

  /** The admin's review list of held facts: oldest first, with the college and who sees each. */
  async list(limit: number, offset: number): Promise<{ total: number; items: FactReview[] }> {
    const total = await this.db.query<{ n: number }>('SELECT count(*)::int AS n FROM colleges.held_fact');
    const r = await this.db.query<HeldRow & { college_name: string; document: College; viewers: string[] }>(
      `SELECT ${COLUMNS}, c.name AS college_name, c.document,
         coalesce((SELECT array_agg(v.uid ORDER BY v.uid) FROM colleges.held_fact_viewer v
                   WHERE v.fact_id = h.id), '{}') AS viewers
       FROM colleges.held_fact h JOIN colleges.college c ON c.id = h.college_id
       ORDER BY h.created_at, h.id LIMIT $1 OFFSET $2`,
      [limit, offset],
    );
    return {
      total: total.rows[0]?.n ?? 0,
      items: r.rows.map((row) => {
        const f = toHeld(row);
        return {
          ...unverifiedView(f),
          collegeName: row.college_name,
          officialWebsite: officialWebsiteOf(row.document),
          requestedBy: row.viewers,
          createdAt: f.createdAt,
        };
      }),
    };
  }
}
