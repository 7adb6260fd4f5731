import type { IncomeBand, StateCode } from '@ct/contracts';
import type { Db, Queryable } from '@ct/store';

/** A student's money profile as stored; null when they set nothing (`presentProfile`). */
export interface ProfileRow {
  home_state: StateCode | null;
  income_band: IncomeBand | null;
  /** Whether the student expects a Pell Grant (issue 48); null: not said */
  pell_eligible: boolean | null;
  /** Whether the student is the first in the family to attend college; null: not said */
  first_generation: boolean | null;
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
      `SELECT home_state, income_band, pell_eligible, first_generation, updated_at
       FROM user_data.student_profile WHERE user_id = $1`,
      [userId],
    );
    return r.rows[0] ?? null;
  }

  /**
   * Sets the home state and income band (null clears one) and, when given, the student's situation
   * (undefined keeps what is stored); a row left with nothing set is forgotten.
   */
  async saveProfile(
    userId: string,
    profile: {
      homeState: StateCode | null;
      incomeBand: IncomeBand | null;
      pellEligible?: boolean | null | undefined;
      firstGeneration?: boolean | null | undefined;
    },
  ): Promise<ProfileRow | null> {
    return this.db.transaction(async (tx) => {
      const r = await tx.query<ProfileRow>(
        `INSERT INTO user_data.student_profile (user_id, home_state, income_band, pell_eligible, first_generation)
         VALUES ($1, $2, $3, $5, $7)
         ON CONFLICT (user_id) DO UPDATE SET home_state = EXCLUDED.home_state,
           income_band = EXCLUDED.income_band,
           pell_eligible = CASE WHEN $4 THEN EXCLUDED.pell_eligible ELSE student_profile.pell_eligible END,
           first_generation = CASE WHEN $6 THEN EXCLUDED.first_generation ELSE student_profile.first_generation END,
           updated_at = now()
         RETURNING home_state, income_band, pell_eligible, first_generation, updated_at`,
        [
          userId,
          profile.homeState,
          profile.incomeBand,
          profile.pellEligible !== undefined,
          profile.pellEligible ?? null,
          profile.firstGeneration !== undefined,
          profile.firstGeneration ?? null,
        ],
      );
      const row = r.rows[0]!;
      if (Object.values({ ...row, updated_at: null }).every((v) => v === null)) {
        await tx.query('DELETE FROM user_data.student_profile WHERE user_id = $1', [userId]);
        return null;
      }
      return row;
    });
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
