import type { IncomeBand, StateCode } from '@ct/contracts';
import type { Db, Queryable } from '@ct/store';

/** A student's money profile as stored; null when they set nothing (`presentProfile`). */
export interface ProfileRow {
  home_state: StateCode | null;
  income_band: IncomeBand | null;
  updated_at: Date;
}

/** SQL for the student's money profile; the only place that touches user_data.student_profile. */
export class ProfileRepository {
  constructor(private readonly db: Db) {}

  async getProfile(userId: string, q: Queryable = this.db): Promise<ProfileRow | null> {
    const r = await q.query<ProfileRow>(
      'SELECT home_state, income_band, updated_at FROM user_data.student_profile WHERE user_id = $1',
      [userId],
    );
    return r.rows[0] ?? null;
  }

  /** Sets both parts at once (null clears one); clearing both forgets the row. */
  async saveProfile(
    userId: string,
    profile: { homeState: StateCode | null; incomeBand: IncomeBand | null },
  ): Promise<ProfileRow | null> {
    if (profile.homeState === null && profile.incomeBand === null) {
      await this.db.query('DELETE FROM user_data.student_profile WHERE user_id = $1', [userId]);
      return null;
    }
    const r = await this.db.query<ProfileRow>(
      `INSERT INTO user_data.student_profile (user_id, home_state, income_band) VALUES ($1, $2, $3)
       ON CONFLICT (user_id) DO UPDATE SET home_state = EXCLUDED.home_state,
         income_band = EXCLUDED.income_band, updated_at = now()
       RETURNING home_state, income_band, updated_at`,
      [userId, profile.homeState, profile.incomeBand],
    );
    return r.rows[0]!;
  }

  async deleteProfile(userId: string, tx: Queryable): Promise<void> {
    await tx.query('DELETE FROM user_data.student_profile WHERE user_id = $1', [userId]);
  }
}
