import type { Db } from '@ct/store';

/** SQL for what the essays schema keeps about an account: the only place that forgets it. */
export class StudentTraceRepository {
  constructor(private readonly db: Db) {}

  /**
   * The example essays an admin added stay (students read them) but no longer name the deleted account;
   * from then on no essay can be recorded as theirs (migration 110: writes in flight end first, later ones
   * are refused).
   */
  async forget(uid: string): Promise<number> {
    return this.db.transaction(async (tx) => {
      await tx.query('SELECT essays.lock_deleted_student($1)', [uid]);
      const rows = (
        await tx.query('UPDATE essays.example_essay SET added_by = NULL WHERE added_by = $1', [uid])
      ).rowCount;
      await tx.query('SELECT essays.record_deleted_student($1)', [uid]);
      return rows;
    });
  }
}
