import type { IncomeBand, StateCode } from '@ct/contracts';
import type { Db, Queryable } from '@ct/store';

/** A student's money profile as stored; null when they set nothing (`presentProfile`). */
export interface ProfileRow {
  home_state: StateCode | null;
  income_band: IncomeBand | null;
  updated_at: Date;
}

/** A student's deadline settings as stored (null: the default). */
export interface DeadlineSettingsRow {
  entering_year: number | null;
  reminder_days: number[] | null;
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
    await tx.query('DELETE FROM user_data.deadline_settings WHERE user_id = $1', [userId]);
  }

  /** The student's deadline settings; null when they chose none. */
  async getDeadlineSettings(userId: string, q: Queryable = this.db): Promise<DeadlineSettingsRow | null> {
    const r = await q.query<DeadlineSettingsRow>(
      'SELECT entering_year, reminder_days FROM user_data.deadline_settings WHERE user_id = $1',
      [userId],
    );
    return r.rows[0] ?? null;
  }

  /** Sets what is given (undefined keeps the stored value, null goes back to the default), in one statement. */
  async saveDeadlineSettings(
    userId: string,
    s: { enteringYear?: number | null | undefined; reminderDays?: number[] | null | undefined },
  ): Promise<DeadlineSettingsRow> {
    const r = await this.db.query<DeadlineSettingsRow>(
      `INSERT INTO user_data.deadline_settings (user_id, entering_year, reminder_days)
       VALUES ($1, $3, $5::integer[])
       ON CONFLICT (user_id) DO UPDATE SET
         entering_year = CASE WHEN $2 THEN EXCLUDED.entering_year ELSE deadline_settings.entering_year END,
         reminder_days = CASE WHEN $4 THEN EXCLUDED.reminder_days ELSE deadline_settings.reminder_days END,
         updated_at = now()
       RETURNING entering_year, reminder_days`,
      [
        userId,
        s.enteringYear !== undefined,
        s.enteringYear ?? null,
        s.reminderDays !== undefined,
        s.reminderDays ?? null,
      ],
    );
    return r.rows[0]!;
  }
}
