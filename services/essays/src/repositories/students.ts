import type { Queryable } from '@ct/store';

/** SQL for what the essays schema keeps about an account: the only place that forgets it. */
export class StudentTraceRepository {
  constructor(private readonly db: Queryable) {}

  /** The example essays an admin added stay (students read them) but no longer name the deleted account. */
  async forget(uid: string): Promise<number> {
    return (await this.db.query('UPDATE essays.example_essay SET added_by = NULL WHERE added_by = $1', [uid]))
      .rowCount;
  }
}
