import type { Checklist } from '@ct/contracts';
import type { Db, Queryable } from '@ct/store';

/** A college on a student's list with its checklist, as stored (`presentUserCollege`). */
export interface UserCollegeRow {
  id: number;
  user_id: string;
  college_key: string;
  college_name: string;
  /** The College Scorecard UNITID the entry points at (null: no government record, or not yet known) */
  scorecard_id: number | null;
  checklist: Checklist;
  added_at: Date;
}

/** An entry of the list without its checklist: what the list itself shows. */
export type ListedCollegeRow = Pick<
  UserCollegeRow,
  'college_key' | 'college_name' | 'scorecard_id' | 'added_at'
>;

/** A removed college whose checklist is kept for Undo. */
export interface RemovedCollegeRow {
  college_key: string;
  college_name: string;
  checklist: Checklist;
  removed_at: Date;
}

const COLUMNS = 'id, user_id, college_key, college_name, scorecard_id, checklist, added_at';

/** Serialises a student's writes to one kind of data (list size limits hold under concurrency). */
export async function lockUser(tx: Queryable, kind: string, userId: string): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`user-data:${kind}:${userId}`]);
}

/**
 * Students' lists (without checklists) kept in memory, for PGlite only: there this process is the only one
 * that reads and writes the data (the folder is locked to it), every write goes through this repository,
 * and each query costs about half a millisecond of the one thread that also serves requests. A write drops
 * the student's entry once it is done; a read that overlapped any write does not keep what it read.
 *
 * Reads of a student whose list is not kept share one query (`kept`, `reads`): a list is first asked for
 * by many requests at once (a page's queries, every connection of a client), and each used to run the
 * query itself (50 connections cycling through 200 students ran it ~10,000 times before every list was
 * kept). A read joins a query only when no write happened since that query began, so what it is answered
 * is never older than a write that answered before it arrived.
 */
class ListCache {
  private readonly lists = new Map<string, ListedCollegeRow[]>();
  /** Queries under way by student, with the write count when each began. */
  private readonly reading = new Map<string, { writes: number; rows: Promise<ListedCollegeRow[]> }>();
  /** Writes so far: a read stores what it read only if none happened meanwhile. */
  writes = 0;

  constructor(private readonly max: number) {}

  /** The student's list if kept, or the query under way for it if that began after the last write. */
  kept(userId: string): ListedCollegeRow[] | Promise<ListedCollegeRow[]> | undefined {
    const kept = this.lists.get(userId);
    if (kept) return kept;
    const pending = this.reading.get(userId);
    return pending && pending.writes === this.writes ? pending.rows : undefined;
  }

  /** A query for the student's list that has just begun: later reads join it; its answer is kept. */
  reads(userId: string, query: Promise<ListedCollegeRow[]>): Promise<ListedCollegeRow[]> {
    const writes = this.writes;
    const done = () => {
      if (this.reading.get(userId)?.rows === rows) this.reading.delete(userId);
    };
    const rows = query.then(
      (list) => {
        done();
        this.store(userId, list, writes);
        return list;
      },
      (err: unknown) => {
        done();
        throw err;
      },
    );
    this.reading.set(userId, { writes, rows });
    return rows;
  }

  private store(userId: string, list: ListedCollegeRow[], writesBefore: number): void {
    if (this.writes !== writesBefore) return;
    if (this.lists.size >= this.max) this.lists.delete(this.lists.keys().next().value!);
    this.lists.set(userId, list);
  }

  /** True when `list` is the one kept for the student (not one read past a write, nor a read uncached). */
  keeps(userId: string, list: readonly ListedCollegeRow[]): boolean {
    return this.lists.get(userId) === list;
  }

  drop(userId: string): void {
    this.writes++;
    this.lists.delete(userId);
  }

  clear(): void {
    this.writes++;
    this.lists.clear();
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

  async listColleges(userId: string, q: Queryable = this.db): Promise<UserCollegeRow[]> {
    const r = await q.query<UserCollegeRow>(
      `SELECT ${COLUMNS} FROM user_data.user_college WHERE user_id = $1 ORDER BY added_at, id`,
      [userId],
    );
    return r.rows;
  }

  /**
   * The list without checklists (what the dashboard's list shows): far less to read and decode, and on
   * PGlite answered from memory. The result may be shared: do not modify it.
   */
  async listCollegeNames(userId: string): Promise<readonly ListedCollegeRow[]> {
    const kept = this.cache?.kept(userId);
    if (kept) return kept;
    const rows = this.queryCollegeNames(userId);
    return this.cache ? this.cache.reads(userId, rows) : rows;
  }

  /**
   * True when `list` (from `listCollegeNames`) is the student's list as kept in memory: only then will the
   * same array be answered again, so only then is anything made from it worth keeping beside it.
   */
  keepsList(userId: string, list: readonly ListedCollegeRow[]): boolean {
    return this.cache?.keeps(userId, list) ?? false;
  }

  private async queryCollegeNames(userId: string): Promise<ListedCollegeRow[]> {
    const r = await this.db.query<ListedCollegeRow>(
      `SELECT college_key, college_name, scorecard_id, added_at FROM user_data.user_college
       WHERE user_id = $1 ORDER BY added_at, id`,
      [userId],
    );
    return r.rows;
  }

  async findCollege(
    userId: string,
    collegeKey: string,
    q: Queryable = this.db,
  ): Promise<UserCollegeRow | null> {
    const r = await q.query<UserCollegeRow>(
      `SELECT ${COLUMNS} FROM user_data.user_college WHERE user_id = $1 AND college_key = $2`,
      [userId, collegeKey],
    );
    return r.rows[0] ?? null;
  }

  /**
   * Adds a college, unless it is already on the list ('exists') or the list is full ('full'). A college the
   * student removed less than `keepDays` ago comes back with its own checklist (passed through `restore`,
   * which brings the college's facts up to date) and its place in the list; otherwise it gets `checklist`.
   * One transaction, serialised per student.
   */
  async addCollege(
    userId: string,
    college: { key: string; name: string; scorecardId: number | null; checklist: Checklist },
    limits: { maxColleges: number; keepDays: number },
    restore: (saved: Checklist) => Checklist = (saved) => saved,
  ): Promise<{ college: UserCollegeRow; restored: boolean } | 'exists' | 'full'> {
    const added = this.db.transaction(async (tx) => {
      await lockUser(tx, 'colleges', userId);
      // The same institution under another name (a renamed twin) is on the list already too.
      const existing = await tx.query<{ n: number; has: boolean }>(
        `SELECT count(*)::int AS n,
           coalesce(bool_or(college_key = $2 OR scorecard_id = $3::integer), false) AS has
         FROM user_data.user_college WHERE user_id = $1`,
        [userId, college.key, college.scorecardId],
      );
      const { n, has } = existing.rows[0] ?? { n: 0, has: false };
      if (has) return 'exists';
      if (n >= limits.maxColleges) return 'full';
      // Taken out of the kept ones either way: one older than keepDays is past its purge.
      const kept = await tx.query<{ checklist: Checklist; added_at: Date; fresh: boolean }>(
        `DELETE FROM user_data.removed_college
         WHERE user_id = $1 AND (college_key = $2 OR scorecard_id = $4::integer)
         RETURNING checklist, added_at, removed_at > now() - make_interval(days => $3) AS fresh`,
        [userId, college.key, limits.keepDays, college.scorecardId],
      );
      const saved = kept.rows.find((r) => r.fresh);
      const checklist = saved ? restore(saved.checklist) : college.checklist;
      const r = await tx.query<UserCollegeRow>(
        `INSERT INTO user_data.user_college (user_id, college_key, college_name, scorecard_id, checklist, added_at)
         VALUES ($1, $2, $3, $4, $5::json, coalesce($6::timestamptz, now())) RETURNING ${COLUMNS}`,
        [
          userId,
          college.key,
          college.name,
          college.scorecardId,
          JSON.stringify(checklist),
          saved?.added_at ?? null,
        ],
      );
      return { college: r.rows[0]!, restored: !!saved };
    });
    return this.written(userId, added);
  }

  /**
   * Takes a college off the list. Its checklist is kept aside for `addCollege` to restore, until
   * `purgeRemoved` forgets it. False when it was not on the list.
   */
  async removeCollege(userId: string, collegeKey: string): Promise<boolean> {
    const removed = this.db.transaction(async (tx) => {
      await lockUser(tx, 'colleges', userId);
      const r = await tx.query<UserCollegeRow>(
        `DELETE FROM user_data.user_college WHERE user_id = $1 AND college_key = $2 RETURNING ${COLUMNS}`,
        [userId, collegeKey],
      );
      const row = r.rows[0];
      if (!row) return false;
      await tx.query(
        `INSERT INTO user_data.removed_college
           (user_id, college_key, college_name, scorecard_id, checklist, added_at)
         VALUES ($1, $2, $3, $4, $5::json, $6)
         ON CONFLICT (user_id, college_key) DO UPDATE SET college_name = excluded.college_name,
           scorecard_id = excluded.scorecard_id, checklist = excluded.checklist,
           added_at = excluded.added_at, removed_at = now()`,
        [
          userId,
          row.college_key,
          row.college_name,
          row.scorecard_id,
          JSON.stringify(row.checklist),
          row.added_at,
        ],
      );
      return true;
    });
    return this.written(userId, removed);
  }

  /** Forgets removed colleges kept for `keepDays` or longer; returns how many. */
  async purgeRemoved(keepDays: number): Promise<number> {
    const r = await this.db.query(
      'DELETE FROM user_data.removed_college WHERE removed_at <= now() - make_interval(days => $1)',
      [keepDays],
    );
    return r.rowCount;
  }

  /** The student's removed colleges still kept for Undo, most recently removed first. */
  async listRemoved(userId: string, keepDays: number, q: Queryable = this.db): Promise<RemovedCollegeRow[]> {
    const r = await q.query<RemovedCollegeRow>(
      `SELECT college_key, college_name, checklist, removed_at FROM user_data.removed_college
       WHERE user_id = $1 AND removed_at > now() - make_interval(days => $2) ORDER BY removed_at DESC`,
      [userId, keepDays],
    );
    return r.rows;
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
    scorecardId: number | null = null,
  ): Promise<number> {
    let changed = 0;
    let after = 0;
    if (scorecardId !== null) await this.learnScorecardId(collegeKey, scorecardId);
    for (;;) {
      // By UNITID when the college has one; by name only for entries without one (never another twin's).
      const ids = await this.db.query<{ id: number }>(
        `SELECT id FROM user_data.user_college
         WHERE (CASE WHEN $4::integer IS NULL THEN college_key = $1
                     ELSE scorecard_id = $4::integer OR (scorecard_id IS NULL AND college_key = $1) END)
           AND id > $2 ORDER BY id LIMIT $3`,
        [collegeKey, after, batchSize, scorecardId],
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
            // The UNITID is learned again under the new name (merges are of colleges an admin curates).
            `UPDATE user_data.user_college SET college_key = $2, college_name = $3, checklist = $4::json,
               scorecard_id = NULL, updated_at = now() WHERE id = $1`,
            [row.id, to.key, to.name, JSON.stringify(change(row.checklist) ?? row.checklist)],
          ),
        );
      }
      // Removed colleges kept for Undo follow too, unless the student keeps one of the other already.
      await tx.query(
        `DELETE FROM user_data.removed_college r WHERE r.college_key = $1
           AND ($3::text[] IS NULL OR r.user_id = ANY($3::text[]))
           AND EXISTS (SELECT 1 FROM user_data.removed_college o WHERE o.user_id = r.user_id AND o.college_key = $2)`,
        [fromKey, to.key, students],
      );
      await tx.query(
        `UPDATE user_data.removed_college SET college_key = $2, college_name = $3, scorecard_id = NULL
         WHERE college_key = $1 AND ($4::text[] IS NULL OR user_id = ANY($4::text[]))`,
        [fromKey, to.key, to.name, students],
      );
      return rows.rows.length;
    });
  }

  /**
   * Entries made before UNITIDs were kept learn theirs: those stored under the college's own official name
   * (`collegeKey`, the normalised stored name; never an alias), in lists and kept for Undo. Returns how many.
   */
  async learnScorecardId(collegeKey: string, scorecardId: number, userId?: string): Promise<number> {
    const args = [collegeKey, scorecardId, userId ?? null];
    const where = 'college_key = $1 AND scorecard_id IS NULL AND ($3::text IS NULL OR user_id = $3)';
    const n = await this.db.transaction(async (tx) => {
      const r = await tx.query(`UPDATE user_data.user_college SET scorecard_id = $2 WHERE ${where}`, args);
      await tx.query(`UPDATE user_data.removed_college SET scorecard_id = $2 WHERE ${where}`, args);
      return r.rowCount;
    });
    if (n && userId) this.cache?.drop(userId);
    else if (n) this.cache?.clear();
    return n;
  }

  /** Deletes the student's colleges, removed ones kept for Undo included; returns how many were listed. */
  async deleteAllColleges(userId: string, tx: Queryable): Promise<number> {
    await tx.query('DELETE FROM user_data.removed_college WHERE user_id = $1', [userId]);
    // In the caller's transaction: PGlite holds every other query until it ends, so a read after the drop
    // sees the outcome, and one begun before it keeps nothing.
    const r = await this.written(
      userId,
      tx.query('DELETE FROM user_data.user_college WHERE user_id = $1', [userId]),
    );
    return r.rowCount;
  }

  /** The lists of several students (an admin page), per student in the order they were added. */
  async collegesOfStudents(ids: string[]): Promise<Array<{ user_id: string; college_name: string }>> {
    if (!ids.length) return [];
    const rows = await this.db.query<{ user_id: string; college_name: string }>(
      `SELECT user_id, college_name FROM user_data.user_college WHERE user_id = ANY($1::text[])
       ORDER BY user_id, added_at, id`,
      [ids],
    );
    return rows.rows;
  }
}
