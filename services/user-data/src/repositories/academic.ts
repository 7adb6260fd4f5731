import type { Db, Queryable } from '@ct/store';

/** A student's academic profile as stored; null when they set nothing (`presentAcademicProfile`). */
export interface AcademicRow {
  sat_reading_writing: number | null;
  sat_math: number | null;
  act_composite: number | null;
  /** numeric arrives as text */
  gpa: string | null;
  yearly_budget: number | null;
  /** Normalised college keys */
  test_optional: string[];
  updated_at: Date;
}

export interface AcademicInput {
  satReadingWriting: number | null;
  satMath: number | null;
  act: number | null;
  gpa: number | null;
  yearlyBudget: number | null;
  testOptional: string[];
}

const COLUMNS =
  'sat_reading_writing, sat_math, act_composite, gpa::text AS gpa, yearly_budget, test_optional, updated_at';

/** SQL for the academic profile; the only place that touches user_data.academic_profile. */
export class AcademicRepository {
  constructor(private readonly db: Db) {}

  async getAcademic(userId: string, q: Queryable = this.db): Promise<AcademicRow | null> {
    const r = await q.query<AcademicRow>(
      `SELECT ${COLUMNS} FROM user_data.academic_profile WHERE user_id = $1`,
      [userId],
    );
    return r.rows[0] ?? null;
  }

  /** Sets every part at once (null or [] clears one); clearing all forgets the row. */
  async saveAcademic(userId: string, p: AcademicInput): Promise<AcademicRow | null> {
    const empty =
      [p.satReadingWriting, p.satMath, p.act, p.gpa, p.yearlyBudget].every((v) => v === null) &&
      !p.testOptional.length;
    if (empty) {
      await this.db.query('DELETE FROM user_data.academic_profile WHERE user_id = $1', [userId]);
      return null;
    }
    const r = await this.db.query<AcademicRow>(
      `INSERT INTO user_data.academic_profile
         (user_id, sat_reading_writing, sat_math, act_composite, gpa, yearly_budget, test_optional)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (user_id) DO UPDATE SET sat_reading_writing = EXCLUDED.sat_reading_writing,
         sat_math = EXCLUDED.sat_math, act_composite = EXCLUDED.act_composite, gpa = EXCLUDED.gpa,
         yearly_budget = EXCLUDED.yearly_budget, test_optional = EXCLUDED.test_optional, updated_at = now()
       RETURNING ${COLUMNS}`,
      [userId, p.satReadingWriting, p.satMath, p.act, p.gpa, p.yearlyBudget, p.testOptional],
    );
    return r.rows[0]!;
  }

  async deleteAcademic(userId: string, tx: Queryable): Promise<void> {
    await tx.query('DELETE FROM user_data.academic_profile WHERE user_id = $1', [userId]);
  }
}
