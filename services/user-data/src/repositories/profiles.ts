import type { IncomeBand, StateCode, StudentProfile } from '@ct/contracts';
import type { Db, Queryable } from '@ct/store';

const EMPTY: StudentProfile = { homeState: null, incomeBand: null, updatedAt: null };

/** SQL for the student's money profile; the only place that touches user_data.student_profile. */
export class ProfileRepository {
  constructor(private readonly db: Db) {}

  async getProfile(userId: string, q: Queryable = this.db): Promise<StudentProfile> {
    const r = await q.query<{
      home_state: StateCode | null;
      income_band: IncomeBand | null;
      updated_at: Date;
    }>('SELECT home_state, income_band, updated_at FROM user_data.student_profile WHERE user_id = $1', [
      userId,
    ]);
    const row = r.rows[0];
    if (!row) return EMPTY;
    return {
      homeState: row.home_state,
      incomeBand: row.income_band,
      updatedAt: row.updated_at.toISOString(),
    };
  }

  /** Sets both parts at once (null clears one); clearing both forgets the row. */
  async saveProfile(
    userId: string,
    profile: { homeState: StateCode | null; incomeBand: IncomeBand | null },
  ): Promise<StudentProfile> {
    if (profile.homeState === null && profile.incomeBand === null) {
      await this.db.query('DELETE FROM user_data.student_profile WHERE user_id = $1', [userId]);
      return EMPTY;
    }
    const r = await this.db.query<{ updated_at: Date }>(
      `INSERT INTO user_data.student_profile (user_id, home_state, income_band) VALUES ($1, $2, $3)
       ON CONFLICT (user_id) DO UPDATE SET home_state = EXCLUDED.home_state,
         income_band = EXCLUDED.income_band, updated_at = now()
       RETURNING updated_at`,
      [userId, profile.homeState, profile.incomeBand],
    );
    return { ...profile, updatedAt: r.rows[0]!.updated_at.toISOString() };
  }

  async deleteProfile(userId: string, tx: Queryable): Promise<void> {
    await tx.query('DELETE FROM user_data.student_profile WHERE user_id = $1', [userId]);
  }
}
