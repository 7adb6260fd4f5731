import type { Checklist, UserCollege } from '@ct/contracts';
import type { Db, Queryable } from '@ct/store';

interface Row {
  id: number;
  user_id: string;
  college_key: string;
  college_name: string;
  checklist: Checklist;
  added_at: Date;
}

export interface StoredCollege {
  id: number;
  collegeId: string;
  collegeName: string;
  checklist: Checklist;
  addedAt: string;
}

const toStored = (r: Row): StoredCollege => ({
  id: r.id,
  collegeId: r.college_key,
  collegeName: r.college_name,
  checklist: r.checklist,
  addedAt: r.added_at.toISOString(),
});

export const toUserCollege = (c: StoredCollege): UserCollege => ({
  collegeId: c.collegeId,
  collegeName: c.collegeName,
  addedAt: c.addedAt,
});

/** Serialises a student's writes to one kind of data (list size limits hold under concurrency). */
export async function lockUser(tx: Queryable, kind: string, userId: string): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`user-data:${kind}:${userId}`]);
}

/**
 * Students' lists (without checklists) kept in memory, for PGlite only: there this process is the only one
 * that reads and writes the data (the folder is locked to it), every write goes through this repository,
 * and each query costs about half a millisecond of the one thread that also serves requests. A write drops
 * the student's entry once it is done; a read that overlapped any write does not keep what it read.
 */
class ListCache {
  private readonly lists = new Map<string, UserCollege[]>();
  /** Writes so far: a read stores what it read only if none happened meanwhile. */
  writes = 0;

  constructor(private readonly max: number) {}

  get(userId: string): UserCollege[] | undefined {
    return this.lists.get(userId);
  }

  store(userId: string, list: UserCollege[], writesBefore: number): void {
    if (this.writes !== writesBefore) return;
    if (this.lists.size >= this.max) this.lists.delete(this.lists.keys().next().value!);
    this.lists.set(userId, list);
  }

  drop(userId: string): void {
    this.writes++;
    this.lists.delete(userId);
  }
}

/** One cache per store, whichever repository object writes. */
const listCaches = new WeakMap<Db, ListCache>();

/** SQL for a student's colleges and their checklists; the only place that touches user_data.user_college. */
export class UserCollegeRepository {
  private readonly cache: ListCache | null;

  constructor(private readonly db: Db) {
    let cache = listCaches.get(db) ?? null;
    if (!cache && db.kind === 'pglite') listCaches.set(db, (cache = new ListCache(10_000)));
    this.cache = cache;
  }

  /** Waits for a write to a student's list, then drops their list from the cache (whatever the outcome). */
  private async written<T>(userId: string, write: Promise<T>): Promise<T> {
    try {
      return await write;
    } finally {
      this.cache?.drop(userId);
    }
  }

  async listColleges(userId: string, q: Queryable = this.db): Promise<StoredCollege[]> {
    const r = await q.query<Row>(
      `SELECT id, user_id, college_key, college_name, checklist, added_at FROM user_data.user_college
       WHERE user_id = $1 ORDER BY added_at, id`,
      [userId],
    );
    return r.rows.map(toStored);
  }

  /**
   * The list without checklists (what the dashboard's list shows): far less to read and decode, and on
   * PGlite answered from memory. The result may be shared: do not modify it.
   */
  async listCollegeNames(userId: string): Promise<UserCollege[]> {
    const hit = this.cache?.get(userId);
    if (hit) return hit;
    const writesBefore = this.cache?.writes ?? 0;
    const r = await this.db.query<Pick<Row, 'college_key' | 'college_name' | 'added_at'>>(
      `SELECT college_key, college_name, added_at FROM user_data.user_college
       WHERE user_id = $1 ORDER BY added_at, id`,
      [userId],
    );
    const list = r.rows.map((c) => ({
      collegeId: c.college_key,
      collegeName: c.college_name,
      addedAt: c.added_at.toISOString(),
    }));
    this.cache?.store(userId, list, writesBefore);
    return list;
  }

  async findCollege(
    userId: string,
    collegeKey: string,
    q: Queryable = this.db,
  ): Promise<StoredCollege | null> {
    const r = await q.query<Row>(
      `SELECT id, user_id, college_key, college_name, checklist, added_at FROM user_data.user_college
       WHERE user_id = $1 AND college_key = $2`,
      [userId, collegeKey],
    );
    return r.rows[0] ? toStored(r.rows[0]) : null;
  }

  /**
   * Adds a college with its new checklist, unless it is already on the list ('exists') or the list is
   * full ('full'). One transaction, serialised per student.
   */
  async addCollege(
    userId: string,
    college: { key: string; name: string; checklist: Checklist },
    maxColleges: number,
  ): Promise<StoredCollege | 'exists' | 'full'> {
    const added = this.db.transaction(async (tx) => {
      await lockUser(tx, 'colleges', userId);
      const existing = await tx.query<{ n: number; has: boolean }>(
        `SELECT count(*)::int AS n, coalesce(bool_or(college_key = $2), false) AS has
         FROM user_data.user_college WHERE user_id = $1`,
        [userId, college.key],
      );
      const { n, has } = existing.rows[0] ?? { n: 0, has: false };
      if (has) return 'exists';
      if (n >= maxColleges) return 'full';
      const r = await tx.query<Row>(
        `INSERT INTO user_data.user_college (user_id, college_key, college_name, checklist)
         VALUES ($1, $2, $3, $4::json)
         RETURNING id, user_id, college_key, college_name, checklist, added_at`,
        [userId, college.key, college.name, JSON.stringify(college.checklist)],
      );
      return toStored(r.rows[0]!);
    });
    return this.written(userId, added);
  }

  /** Removes a college and its checklist; false when it was not on the list. */
  async removeCollege(userId: string, collegeKey: string): Promise<boolean> {
    const r = await this.written(
      userId,
      this.db.query('DELETE FROM user_data.user_college WHERE user_id = $1 AND college_key = $2', [
        userId,
        collegeKey,
      ]),
    );
    return r.rowCount > 0;
  }

  /**
   * Changes one checklist under a row lock: `change` sees the current checklist and returns the next one
   * (or a refusal, passed back untouched). Two concurrent changes run one after the other, each on the
   * other's result, so neither is lost.
   */
  async updateChecklist<R extends string>(
    userId: string,
    collegeKey: string,
    change: (current: Checklist) => Checklist | R,
  ): Promise<Checklist | R | null> {
    return this.db.transaction(async (tx) => {
      const r = await tx.query<{ id: number; checklist: Checklist }>(
        `SELECT id, checklist FROM user_data.user_college WHERE user_id = $1 AND college_key = $2 FOR UPDATE`,
        [userId, collegeKey],
      );
      const row = r.rows[0];
      if (!row) return null;
      const next = change(row.checklist);
      if (typeof next === 'string') return next;
      await tx.query(
        'UPDATE user_data.user_college SET checklist = $2::json, updated_at = now() WHERE id = $1',
        [row.id, JSON.stringify(next)],
      );
      return next;
    });
  }

  /**
   * Applies `change` to every checklist of one college, in batches of short transactions with row locks;
   * rows for which `change` returns null are left alone. Returns how many checklists changed.
   */
  async updateChecklistsOfCollege(
    collegeKey: string,
    change: (current: Checklist) => Checklist | null,
    batchSize = 200,
  ): Promise<number> {
    let changed = 0;
    let after = 0;
    for (;;) {
      const ids = await this.db.query<{ id: number }>(
        `SELECT id FROM user_data.user_college WHERE college_key = $1 AND id > $2 ORDER BY id LIMIT $3`,
        [collegeKey, after, batchSize],
      );
      if (!ids.rows.length) return changed;
      after = ids.rows.at(-1)!.id;
      changed += await this.db.transaction(async (tx) => {
        const rows = await tx.query<{ id: number; checklist: Checklist }>(
          `SELECT id, checklist FROM user_data.user_college WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE`,
          [ids.rows.map((r) => r.id)],
        );
        let n = 0;
        for (const row of rows.rows) {
          const next = change(row.checklist);
          if (!next) continue;
          await tx.query(
            'UPDATE user_data.user_college SET checklist = $2::json, updated_at = now() WHERE id = $1',
            [row.id, JSON.stringify(next)],
          );
          n++;
        }
        return n;
      });
    }
  }

  /**
   * A college was merged into another: its list entries move to the other college's key and name, with
   * `change` applied to their checklists (ticks and tasks stay). A student who has the other college
   * already keeps that entry and loses the merged one. Only `students`' entries when given (a college
   * private to them). One transaction; a second run finds nothing left to move.
   */
  async moveCollege(
    fromKey: string,
    to: { key: string; name: string },
    students: string[] | null,
    change: (current: Checklist) => Checklist | null,
  ): Promise<number> {
    if (fromKey === to.key) return 0;
    return this.db.transaction(async (tx) => {
      const rows = await tx.query<{ id: number; user_id: string; checklist: Checklist }>(
        `SELECT id, user_id, checklist FROM user_data.user_college
         WHERE college_key = $1 AND ($2::text[] IS NULL OR user_id = ANY($2::text[])) ORDER BY id FOR UPDATE`,
        [fromKey, students],
      );
      for (const row of rows.rows) {
        const has = await tx.query(
          'SELECT 1 FROM user_data.user_college WHERE user_id = $1 AND college_key = $2',
          [row.user_id, to.key],
        );
        if (has.rows.length) {
          await this.written(
            row.user_id,
            tx.query('DELETE FROM user_data.user_college WHERE id = $1', [row.id]),
          );
          continue;
        }
        await this.written(
          row.user_id,
          tx.query(
            `UPDATE user_data.user_college SET college_key = $2, college_name = $3, checklist = $4::json,
               updated_at = now() WHERE id = $1`,
            [row.id, to.key, to.name, JSON.stringify(change(row.checklist) ?? row.checklist)],
          ),
        );
      }
      return rows.rows.length;
    });
  }

  async deleteAllColleges(userId: string, tx: Queryable): Promise<number> {
    // In the caller's transaction: PGlite holds every other query until it ends, so a read after the drop
    // sees the outcome, and one begun before it keeps nothing.
    const r = await this.written(
      userId,
      tx.query('DELETE FROM user_data.user_college WHERE user_id = $1', [userId]),
    );
    return r.rowCount;
  }

  /** The lists of several students (an admin page), per student in the order they were added. */
  async collegesOfStudents(ids: string[]): Promise<Map<string, Array<{ collegeName: string }>>> {
    const byUser = new Map(ids.map((id) => [id, [] as Array<{ collegeName: string }>]));
    if (!ids.length) return byUser;
    const rows = await this.db.query<{ user_id: string; college_name: string }>(
      `SELECT user_id, college_name FROM user_data.user_college WHERE user_id = ANY($1::text[])
       ORDER BY user_id, added_at, id`,
      [ids],
    );
    for (const r of rows.rows) byUser.get(r.user_id)?.push({ collegeName: r.college_name });
    return byUser;
  }
}
