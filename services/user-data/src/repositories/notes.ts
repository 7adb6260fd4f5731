import { randomUUID } from 'node:crypto';
import type { Db, Queryable } from '@ct/store';
import { lockUser } from './colleges.ts';

/** A note as stored; `presentNote` makes the API's shape of it. */
export interface NoteRow {
  id: string;
  title: string;
  content: string;
  deadline: string | null;
  created_at: Date;
  updated_at: Date;
}

// `deadline::text` gives YYYY-MM-DD on both engines without time-zone shifts.
const COLUMNS = 'id::text AS id, title, content, deadline::text AS deadline, created_at, updated_at';

/** How a note is named in a call: by its id, or by its title as the spec's calls do. */
export type NoteRef = { id: string } | { title: string };

function refWhere(ref: NoteRef): [string, string] {
  return 'id' in ref ? ['id::text = $2', ref.id] : ['title = $2', ref.title];
}

/** SQL for notes; the only place that touches user_data.note. */
export class NoteRepository {
  constructor(private readonly db: Db) {}

  async listNotes(userId: string, q: Queryable = this.db): Promise<NoteRow[]> {
    const r = await q.query<NoteRow>(
      `SELECT ${COLUMNS} FROM user_data.note WHERE user_id = $1 ORDER BY created_at, id`,
      [userId],
    );
    return r.rows;
  }

  /** Adds a note unless the student has `maxNotes` already ('full') or one with that title ('exists'). */
  async addNote(
    userId: string,
    note: { title: string; content: string; deadline: string | null },
    maxNotes: number,
  ): Promise<NoteRow | 'full' | 'exists'> {
    return this.db.transaction(async (tx) => {
      await lockUser(tx, 'notes', userId);
      const c = await tx.query<{ n: number; has: boolean }>(
        `SELECT count(*)::int AS n, coalesce(bool_or(title = $2), false) AS has FROM user_data.note WHERE user_id = $1`,
        [userId, note.title],
      );
      const { n, has } = c.rows[0] ?? { n: 0, has: false };
      if (n >= maxNotes) return 'full';
      if (has) return 'exists';
      const r = await tx.query<NoteRow>(
        `INSERT INTO user_data.note (id, user_id, title, content, deadline) VALUES ($1, $2, $3, $4, $5::date)
         RETURNING ${COLUMNS}`,
        [randomUUID(), userId, note.title, note.content, note.deadline],
      );
      return r.rows[0]!;
    });
  }

  /** Changes a note's content (and its deadline when given); null when there is no such note. */
  async updateNote(
    userId: string,
    ref: NoteRef,
    change: { content: string; deadline?: string | null },
  ): Promise<NoteRow | null> {
    const [cond, value] = refWhere(ref);
    const setDeadline = change.deadline !== undefined;
    const r = await this.db.query<NoteRow>(
      `UPDATE user_data.note SET content = $3, updated_at = now()
         ${setDeadline ? ', deadline = $4::date' : ''}
       WHERE user_id = $1 AND ${cond} RETURNING ${COLUMNS}`,
      [userId, value, change.content, ...(setDeadline ? [change.deadline] : [])],
    );
    return r.rows[0] ?? null;
  }

  /** Removes a note; false when there is no such note. */
  async removeNote(userId: string, ref: NoteRef): Promise<boolean> {
    const [cond, value] = refWhere(ref);
    const r = await this.db.query(`DELETE FROM user_data.note WHERE user_id = $1 AND ${cond}`, [
      userId,
      value,
    ]);
    return r.rowCount > 0;
  }

  async deleteAllNotes(userId: string, tx: Queryable): Promise<number> {
    return (await tx.query('DELETE FROM user_data.note WHERE user_id = $1', [userId])).rowCount;
  }

  /** The notes of several students (an admin page), per student in creation order. */
  async notesOfStudents(
    ids: string[],
  ): Promise<Array<Pick<NoteRow, 'title' | 'content' | 'created_at'> & { user_id: string }>> {
    if (!ids.length) return [];
    const rows = await this.db.query<Pick<NoteRow, 'title' | 'content' | 'created_at'> & { user_id: string }>(
      `SELECT user_id, title, content, created_at FROM user_data.note WHERE user_id = ANY($1::text[])
       ORDER BY user_id, created_at, id`,
      [ids],
    );
    return rows.rows;
  }
}
