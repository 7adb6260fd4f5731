import type { Queryable } from '@ct/store';

/** One admin's read of one student's notes, as stored. */
export interface NoteReadRow {
  /** Null once the reader's account is deleted (`reader_email` and the pseudonym stay). */
  reader_uid: string | null;
  /** The reader's e-mail at the time of reading. */
  reader_email: string | null;
  student_uid: string;
  notes: number;
  read_at: Date;
}

/** Who read: the uid and the e-mail the reader had at the time. */
export interface Reader {
  uid: string;
  email: string | null;
}

/**
 * SQL for the trail of admins' reads of students' notes (user_data.note_read). What a read records of its
 * reader (e-mail then, a SHA-256 pseudonym of the uid) never changes afterwards: deleting the reader's
 * account clears only the uid column, and revoking the role nothing. Rows go after `keepDays`.
 */
export class NoteReadRepository {
  constructor(private readonly db: Queryable) {}

  /** Records that `reader` was shown these students' notes (how many of each). */
  async record(reader: Reader, shown: Array<{ userId: string; notes: number }>): Promise<void> {
    if (!shown.length) return;
    await this.db.query(
      `INSERT INTO user_data.note_read (reader_uid, reader_email, reader_sha256, student_uid, notes)
       SELECT $1, $2, encode(sha256(convert_to($1, 'UTF8')), 'hex'), s, n
       FROM unnest($3::text[], $4::int[]) AS t(s, n)`,
      [reader.uid, reader.email, shown.map((s) => s.userId), shown.map((s) => s.notes)],
    );
  }

  /** The newest reads first, within the keep time. */
  async list(
    limit: number,
    offset: number,
    keepDays: number,
  ): Promise<{ total: number; rows: NoteReadRow[] }> {
    const kept = `read_at >= now() - make_interval(days => $1::int)`;
    const [total, rows] = await Promise.all([
      this.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM user_data.note_read WHERE ${kept}`, [
        keepDays,
      ]),
      this.db.query<NoteReadRow>(
        `SELECT reader_uid, reader_email, student_uid, notes, read_at FROM user_data.note_read
         WHERE ${kept} ORDER BY read_at DESC, id DESC LIMIT $2 OFFSET $3`,
        [keepDays, limit, offset],
      ),
    ]);
    return { total: total.rows[0]!.n, rows: rows.rows };
  }

  /** Removes reads older than the keep time; how many. */
  async purge(keepDays: number): Promise<number> {
    const r = await this.db.query(
      'DELETE FROM user_data.note_read WHERE read_at < now() - make_interval(days => $1::int)',
      [keepDays],
    );
    return r.rowCount;
  }

  /**
   * A deleted account (or its data): its rows as the student go; as the reader, its uid is cleared, while
   * its e-mail at the time and the pseudonym stay for the keep time (issue 35: the trail cannot be erased).
   */
  async forget(uid: string, tx: Queryable): Promise<void> {
    await tx.query('DELETE FROM user_data.note_read WHERE student_uid = $1', [uid]);
    await tx.query('UPDATE user_data.note_read SET reader_uid = NULL WHERE reader_uid = $1', [uid]);
  }
}
