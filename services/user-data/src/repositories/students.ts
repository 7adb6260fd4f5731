import type { Db, Queryable } from '@ct/store';

export interface StudentPageFilter {
  /** A part of the user id (case-insensitive). */
  userId?: string | undefined;
  limit: number;
  offset: number;
}

/**
 * SQL for user_data.student, the per-student summary the triggers keep (see migration 002): the admin
 * counts and the paging through students with notes or with colleges.
 */
export class StudentRepository {
  constructor(private readonly db: Db) {}

  async stats(): Promise<{ profiles: number; notes: number; userColleges: number }> {
    const r = await this.db.query<{ profiles: number; notes: number; colleges: number }>(
      `SELECT count(*) FILTER (WHERE notes > 0 OR colleges > 0)::int AS profiles,
              coalesce(sum(notes), 0)::int AS notes, coalesce(sum(colleges), 0)::int AS colleges
       FROM user_data.student`,
    );
    const row = r.rows[0]!;
    return { profiles: row.profiles, notes: row.notes, userColleges: row.colleges };
  }

  /** One page of the students who have notes (or colleges), in user id order, and how many there are. */
  async page(
    kind: 'notes' | 'colleges',
    filter: StudentPageFilter,
  ): Promise<{ total: number; ids: string[] }> {
    const params: unknown[] = [];
    let where = kind === 'notes' ? 'notes > 0' : 'colleges > 0';
    if (filter.userId) {
      params.push(`%${filter.userId.replace(/[\\%_]/g, '\\$&')}%`);
      where += ` AND user_id ILIKE $1`;
    }
    const total = await this.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM user_data.student WHERE ${where}`,
      params,
    );
    const ids = await this.db.query<{ user_id: string }>(
      `SELECT user_id FROM user_data.student WHERE ${where} ORDER BY user_id
       LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, filter.limit, filter.offset],
    );
    return { total: total.rows[0]?.n ?? 0, ids: ids.rows.map((r) => r.user_id) };
  }

  /** Drops the student's summary row (after their notes and colleges are gone). */
  async forget(userId: string, tx: Queryable): Promise<void> {
    await tx.query('DELETE FROM user_data.student WHERE user_id = $1', [userId]);
  }

  /**
   * The deleted-account check every write of a student's rows makes inside its own transaction (issue
   * 35): refuses (SQLSTATE CTDEL, answered 401 "Your account no longer exists.") when the account was
   * deleted or is being deleted, and otherwise holds the student's lock shared until the transaction ends,
   * so the deletion waits for this write and then deletes what it wrote. The tables of migration 110 run
   * it by trigger on every insert and update; a new table keyed by a student adds the trigger, and code
   * that must refuse before it writes anything calls this.
   */
  async refuseIfDeleted(userId: string, tx: Queryable): Promise<void> {
    await tx.query('SELECT user_data.refuse_deleted_student($1)', [userId]);
  }

  /** The deletion's first step: waits for the writes in flight and refuses new ones until it ends. */
  async lockForDeletion(userId: string, tx: Queryable): Promise<void> {
    await tx.query('SELECT user_data.lock_deleted_student($1)', [userId]);
  }

  /** The deletion's last step: every later write of this uid is refused. */
  async recordDeleted(userId: string, tx: Queryable): Promise<void> {
    await tx.query('SELECT user_data.record_deleted_student($1)', [userId]);
  }
}
