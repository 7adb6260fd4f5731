import type { Db } from '@ct/store';

/** SQL for what the colleges schema keeps about a student: the only place that forgets it. */
export class StudentTraceRepository {
  constructor(private readonly db: Db) {}

  /**
   * Forgets a deleted account in one transaction: the names it asked for (its search history), and its
   * view of private colleges and held facts, and its bookings of the hourly AI allowance. Returns how many rows went.
   */
  async forget(uid: string): Promise<number> {
    return this.db.transaction(async (tx) => {
      // Deletion wins every race (migration 110): writes in flight end first, later ones are refused.
      await tx.query('SELECT colleges.lock_deleted_student($1)', [uid]);
      let rows = 0;
      for (const table of [
        'ingestion_requester',
        'major_requester',
        'private_college_viewer',
        'held_fact_viewer',
        'ai_booking',
      ])
        rows += (await tx.query(`DELETE FROM colleges.${table} WHERE uid = $1`, [uid])).rowCount;
      await tx.query('SELECT colleges.record_deleted_student($1)', [uid]);
      return rows;
    });
  }
}
