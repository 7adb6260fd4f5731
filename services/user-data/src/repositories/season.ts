import type { AidOffer } from '@ct/contracts';
import type { Db, Queryable } from '@ct/store';
import { lockUser } from './colleges.ts';

/** A student's application to one college, as stored (`presentApplication` makes the API's shape). */
export interface ApplicationRow {
  college_key: string;
  plan: string | null;
  status: string;
  submitted_on: string | null;
  expected_decision_on: string | null;
  decision_on: string | null;
  reply_by: string | null;
  deposit_due: string | null;
  housing_due: string | null;
  portal_url: string | null;
  portal_set_up: boolean;
  updated_at: Date;
}

/** An award letter as stored. */
export interface AidOfferRow {
  college_key: string;
  cost_of_attendance: number | null;
  grants: AidOffer['grants'];
  work_study: number;
  loans: AidOffer['loans'];
  total_aid_stated: number | null;
  updated_at: Date;
}

/** The columns an application change may set, by their API names. */
export const APPLICATION_COLUMNS = {
  plan: 'plan',
  status: 'status',
  submittedOn: 'submitted_on',
  expectedDecisionOn: 'expected_decision_on',
  decisionOn: 'decision_on',
  replyBy: 'reply_by',
  depositDue: 'deposit_due',
  housingDue: 'housing_due',
  portalUrl: 'portal_url',
  portalSetUp: 'portal_set_up',
} as const;
export type ApplicationChange = Partial<Record<keyof typeof APPLICATION_COLUMNS, string | boolean | null>>;

const APP_SELECT = `SELECT college_key, plan, status, submitted_on::text AS submitted_on,
    expected_decision_on::text AS expected_decision_on, decision_on::text AS decision_on,
    reply_by::text AS reply_by, deposit_due::text AS deposit_due, housing_due::text AS housing_due,
    portal_url, portal_set_up, updated_at
  FROM user_data.application`;
const OFFER_SELECT = `SELECT college_key, cost_of_attendance, grants, work_study, loans, total_aid_stated, updated_at
  FROM user_data.aid_offer`;

/** SQL for applications and aid offers; the only place that touches those two tables. */
export class SeasonRepository {
  constructor(private readonly db: Db) {}

  /** The student's applications (every college key they ever tracked), by college key. */
  async listApplications(userId: string, q: Queryable = this.db): Promise<ApplicationRow[]> {
    return (await q.query<ApplicationRow>(`${APP_SELECT} WHERE user_id = $1 ORDER BY college_key`, [userId]))
      .rows;
  }

  async listAidOffers(userId: string, q: Queryable = this.db): Promise<AidOfferRow[]> {
    return (await q.query<AidOfferRow>(`${OFFER_SELECT} WHERE user_id = $1 ORDER BY college_key`, [userId]))
      .rows;
  }

  /**
   * Changes an application in one transaction: `check` sees the row as it was (null: none yet) and may
   * refuse by throwing, with every other application of the student (e.g. "one enrolled college").
   */
  async changeApplication(
    userId: string,
    collegeKey: string,
    change: ApplicationChange,
    check: (before: ApplicationRow | null, others: ApplicationRow[]) => void,
  ): Promise<ApplicationRow> {
    return this.db.transaction(async (tx) => {
      await lockUser(tx, 'season', userId);
      const all = await this.listApplications(userId, tx);
      check(
        all.find((a) => a.college_key === collegeKey) ?? null,
        all.filter((a) => a.college_key !== collegeKey),
      );
      await tx.query(
        'INSERT INTO user_data.application (user_id, college_key) VALUES ($1, $2) ON CONFLICT DO NOTHING',
        [userId, collegeKey],
      );
      const entries = Object.entries(change).filter(([, v]) => v !== undefined) as Array<
        [keyof typeof APPLICATION_COLUMNS, string | boolean | null]
      >;
      if (entries.length) {
        const sets = entries.map(([k], i) => `${APPLICATION_COLUMNS[k]} = $${i + 3}`);
        await tx.query(
          `UPDATE user_data.application SET ${sets.join(', ')}, updated_at = now()
           WHERE user_id = $1 AND college_key = $2`,
          [userId, collegeKey, ...entries.map(([, v]) => v)],
        );
      }
      const r = await tx.query<ApplicationRow>(`${APP_SELECT} WHERE user_id = $1 AND college_key = $2`, [
        userId,
        collegeKey,
      ]);
      return r.rows[0]!;
    });
  }

  /** Saves (replaces) the award letter of a college. */
  async saveAidOffer(userId: string, collegeKey: string, o: AidOffer): Promise<void> {
    await this.db.query(
      `INSERT INTO user_data.aid_offer
         (user_id, college_key, cost_of_attendance, grants, work_study, loans, total_aid_stated)
       VALUES ($1, $2, $3, $4::jsonb, $5, $6::jsonb, $7)
       ON CONFLICT (user_id, college_key) DO UPDATE SET cost_of_attendance = EXCLUDED.cost_of_attendance,
         grants = EXCLUDED.grants, work_study = EXCLUDED.work_study, loans = EXCLUDED.loans,
         total_aid_stated = EXCLUDED.total_aid_stated, updated_at = now()`,
      [
        userId,
        collegeKey,
        o.costOfAttendance,
        JSON.stringify(o.grants),
        o.workStudy,
        JSON.stringify(o.loans),
        o.totalAidStated,
      ],
    );
  }

  /** Forgets the award letter of a college; false when there was none. */
  async removeAidOffer(userId: string, collegeKey: string): Promise<boolean> {
    const r = await this.db.query('DELETE FROM user_data.aid_offer WHERE user_id = $1 AND college_key = $2', [
      userId,
      collegeKey,
    ]);
    return r.rowCount > 0;
  }

  /** Account deletion: every application and offer of the student, in the caller's transaction. */
  async deleteAll(userId: string, tx: Queryable): Promise<void> {
    await tx.query('DELETE FROM user_data.application WHERE user_id = $1', [userId]);
    await tx.query('DELETE FROM user_data.aid_offer WHERE user_id = $1', [userId]);
  }
}
