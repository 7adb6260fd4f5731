// The PGlite list cache's bookkeeping, on a store whose queries answer when the test says: reads of one
// student share a query, and no read is ever answered from before a write that answered first.
import type { Db, Queryable, QueryResult } from '@ct/store';
import { describe, expect, it } from 'vitest';
import { UserCollegeRepository, type ListedCollegeRow } from './colleges.ts';

/** A PGlite-kind store whose list queries wait until `answer` is called; writes change nothing. */
function heldStore() {
  const pending: Array<(rows: ListedCollegeRow[]) => void> = [];
  const none = async <T>(): Promise<QueryResult<T>> => ({ rows: [], rowCount: 0 });
  const db: Db = {
    kind: 'pglite',
    query: <T>() =>
      new Promise<QueryResult<T>>((resolve) =>
        pending.push((rows) => resolve({ rows: rows as T[], rowCount: rows.length })),
      ),
    exec: async () => {},
    transaction: <T>(fn: (tx: Queryable) => Promise<T>) => fn({ query: none, exec: async () => {} }),
    ping: async () => {},
    close: async () => {},
  };
  return {
    db,
    queries: () => pending.length,
    answer: (i: number, rows: ListedCollegeRow[]) => pending[i]!(rows),
  };
}

const row = (name: string): ListedCollegeRow => ({
  college_key: name.toLowerCase(),
  college_name: name,
  scorecard_id: null,
  added_at: new Date('2026-01-01T00:00:00Z'),
});

describe('UserCollegeRepository.listCollegeNames on PGlite', () => {
  it('answers many reads of one student with one query, then from memory', async () => {
    const store = heldStore();
    const repo = new UserCollegeRepository(store.db);
    const reads = Array.from({ length: 50 }, () => repo.listCollegeNames('u1'));
    const other = repo.listCollegeNames('u2');
    expect(store.queries()).toBe(2);
    store.answer(0, [row('One')]);
    store.answer(1, [row('Two')]);
    for (const list of await Promise.all(reads)) expect(list.map((r) => r.college_name)).toEqual(['One']);
    expect((await other).map((r) => r.college_name)).toEqual(['Two']);
    expect((await repo.listCollegeNames('u1')).map((r) => r.college_name)).toEqual(['One']);
    expect(store.queries()).toBe(2);
  });

  it('a read that arrives after a write never joins a query begun before it', async () => {
    const store = heldStore();
    const repo = new UserCollegeRepository(store.db);
    const before = repo.listCollegeNames('u1');
    // A write to the list answers (it drops the student's list whatever its outcome).
    await repo.removeCollege('u1', 'one');
    const after = repo.listCollegeNames('u1');
    expect(store.queries()).toBe(2);
    store.answer(0, [row('One')]);
    store.answer(1, []);
    expect((await before).map((r) => r.college_name)).toEqual(['One']);
    expect(await after).toEqual([]);
    // What the read begun before the write found is not kept; what the later one found is.
    expect(await repo.listCollegeNames('u1')).toEqual([]);
    expect(store.queries()).toBe(2);
  });

  it('a failed query fails the reads that shared it, and the next read queries again', async () => {
    let queries = 0;
    const failing: Db = {
      ...heldStore().db,
      query: () => {
        queries++;
        return Promise.reject(new Error('store unavailable'));
      },
    };
    const repo = new UserCollegeRepository(failing);
    const reads = [repo.listCollegeNames('u1'), repo.listCollegeNames('u1')];
    for (const r of reads) await expect(r).rejects.toThrow('store unavailable');
    expect(queries).toBe(1);
    await expect(repo.listCollegeNames('u1')).rejects.toThrow('store unavailable');
    expect(queries).toBe(2);
  });
});
