import type { Queryable } from '@ct/store';

/** One admin's read of one student's notes, as stored. */
export interface NoteReadRow {
  reader_uid: string | null;
  student_uid: string;
  notes: number;
  read_at: Date;
}

/** SQL for the trail of admins' reads of students' notes (user_data.note_read). */
export class NoteReadRepository {
  constructor(private readonly db: Queryable) {}

  /** Records that `reader` was shown these students' notes (how many of each). */
  async record(reader: string, shown: Array<{ userId: string; notes: number }>): Promise<void> {
    if (!shown.length) return;
    await this.db.query(
      `INSERT INTO user_data.note_read (reader_uid, student_uid, notes)
       SELECT $1, s, n FROM unnest($2::text[], $3::int[]) AS t(s, n)`,
      [reader, shown.map((s) => s.userId), shown.map((s) => s.notes)],
    );
  }

  /** The newest reads first. */
  async list(limit: number, offset: number): Promise<{ total: number; rows: NoteReadRow[] }> {
    const [total, rows] = await Promise.all([
      this.db.query<{ n: number }>('SELECT count(*)::int AS n FROM user_data.note_read'),
      this.db.query<NoteReadRow>(
        `SELECT reader_uid, student_uid, notes, read_at FROM user_data.note_read
         ORDER BY read_at DESC, id DESC LIMIT $1 OFFSET $2`,
        [limit, offset],
      ),
    ]);
    return { total: total.rows[0]!.n, rows: rows.rows };
  }

  /** A deleted account: its rows as the student go, its name as the reader is removed. */
  async forget(uid: string, tx: Queryable): Promise<void> {
    await tx.query('DELETE FROM user_data.note_read WHERE student_uid = $1', [uid]);
    await tx.query('UPDATE user_data.note_read SET reader_uid = NULL WHERE reader_uid = $1', [uid]);
  }
}
