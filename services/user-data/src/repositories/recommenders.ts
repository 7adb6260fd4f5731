import type { Db, Queryable } from '@ct/store';
import { lockUser } from './colleges.ts';

/** A recommender as stored, named by the college on the list; `presentRecommender` makes the API's shape. */
export interface RecommenderRow {
  id: string;
  college_name: string;
  who: string;
  asked_on: string | null;
  submitted_on: string | null;
  created_at: Date;
}

// The college's name comes from the student's list (the row keeps only the college's key; a college
// since removed from the list is named by its key).
const SELECT = `SELECT r.id::text AS id, coalesce(c.college_name, r.college_key) AS college_name, r.who, r.asked_on::text AS asked_on,
    r.submitted_on::text AS submitted_on, r.created_at
  FROM user_data.recommender r
  LEFT JOIN user_data.user_college c ON c.user_id = r.user_id AND c.college_key = r.college_key`;

export interface RecommenderInput {
  who: string;
  /** undefined: left as it is (a new one starts without) */
  askedOn?: string | null | undefined;
  submittedOn?: string | null | undefined;
}

/** SQL for recommenders; the only place that touches user_data.recommender. */
export class RecommenderRepository {
  constructor(private readonly db: Db) {}

  /** The student's recommenders for a college on their list (all colleges when no key is given). */
  async listRecommenders(
    userId: string,
    collegeKey?: string,
    q: Queryable = this.db,
  ): Promise<RecommenderRow[]> {
    const r = await q.query<RecommenderRow>(
      `${SELECT} WHERE r.user_id = $1 ${collegeKey !== undefined ? 'AND r.college_key = $2' : ''}
       ORDER BY 2, r.created_at, r.id`,
      collegeKey !== undefined ? [userId, collegeKey] : [userId],
    );
    return r.rows;
  }

  /**
   * Adds the recommender with this id, or changes it when the student already has it for this college.
   * 'full' when a new one would exceed `max`; 'not-found' when the id belongs to someone or something else.
   */
  async saveRecommender(
    userId: string,
    collegeKey: string,
    id: string,
    input: RecommenderInput,
    max: number,
  ): Promise<RecommenderRow | 'full' | 'not-found'> {
    return this.db.transaction(async (tx) => {
      await lockUser(tx, 'recommenders', userId);
      const existing = await tx.query<{ mine: boolean }>(
        'SELECT (user_id = $2 AND college_key = $3) AS mine FROM user_data.recommender WHERE id = $1',
        [id, userId, collegeKey],
      );
      if (existing.rows[0]) {
        if (!existing.rows[0].mine) return 'not-found';
        await tx.query(
          `UPDATE user_data.recommender SET who = $2,
             asked_on = CASE WHEN $3::boolean THEN $4::date ELSE asked_on END,
             submitted_on = CASE WHEN $5::boolean THEN $6::date ELSE submitted_on END
           WHERE id = $1`,
          [
            id,
            input.who,
            input.askedOn !== undefined,
            input.askedOn ?? null,
            input.submittedOn !== undefined,
            input.submittedOn ?? null,
          ],
        );
      } else {
        const n = await tx.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM user_data.recommender WHERE user_id = $1 AND college_key = $2',
          [userId, collegeKey],
        );
        if ((n.rows[0]?.n ?? 0) >= max) return 'full';
        // Another student's save of the same id at this very moment wins; this one then finds nothing.
        const inserted = await tx.query(
          `INSERT INTO user_data.recommender (id, user_id, college_key, who, asked_on, submitted_on)
           VALUES ($1, $2, $3, $4, $5::date, $6::date) ON CONFLICT (id) DO NOTHING`,
          [id, userId, collegeKey, input.who, input.askedOn ?? null, input.submittedOn ?? null],
        );
        if (!inserted.rowCount) return 'not-found';
      }
      const r = await tx.query<RecommenderRow>(`${SELECT} WHERE r.id = $1`, [id]);
      return r.rows[0]!;
    });
  }

  /** Removes one of the student's recommenders; the college's key when there was one, else null. */
  async removeRecommender(userId: string, id: string): Promise<string | null> {
    const r = await this.db.query<{ college_key: string }>(
      'DELETE FROM user_data.recommender WHERE id = $1 AND user_id = $2 RETURNING college_key',
      [id, userId],
    );
    return r.rows[0]?.college_key ?? null;
  }

  async deleteAllRecommenders(userId: string, tx: Queryable): Promise<number> {
    return (await tx.query('DELETE FROM user_data.recommender WHERE user_id = $1', [userId])).rowCount;
  }
}
