// Data the serving benchmarks need, seeded as the tests seed it: the college cache straight into the
// store (before the server opens it), students in the Auth emulator, and each student's list through the
// API with the student's own token.
import { normaliseCollegeName } from '@ct/contracts';
import collegesService from '@ct/colleges';
import { CollegeRepository } from '@ct/colleges/repositories/colleges';
import { loadSnapshot } from '@ct/colleges/snapshot';
import { migrateModule, type ServiceModule } from '@ct/service-kit';
import { openDb } from '@ct/store';
import { buildCollege, createVerifiedUser, type TestUser } from '@ct/testkit';
import { pool } from '../load/driver.ts';

/** The name 1,000 students add at once: known to the Scorecard fake, taken out of the seeded cache. */
export const NEW_COLLEGE = 'Massachusetts Institute of Technology';

export interface CollegeCache {
  /** Every cached college's name. */
  names: string[];
  /** Names of colleges whose facts are gathered (a search for them does no background work). */
  gathered: string[];
}

/**
 * Fills the college cache of a store (PGlite folder or Postgres URL) to `total` colleges as a data folder
 * is after its first start: the shipped College Scorecard snapshot (recorded as loaded, so the server does
 * not load it again), minus NEW_COLLEGE, plus synthetic colleges with gathered facts.
 */
export async function seedCollegeCache(
  store: { url: string } | { dataDir: string },
  total: number,
): Promise<CollegeCache> {
  const db = await openDb('url' in store ? { url: store.url } : { dataDir: store.dataDir });
  try {
    await migrateModule(db, collegesService as unknown as ServiceModule);
    await loadSnapshot(db);
    await db.query('DELETE FROM colleges.college WHERE normalized_name = $1', [
      normaliseCollegeName(NEW_COLLEGE),
    ]);
    const repo = new CollegeRepository(db);
    const have = await repo.countColleges();
    const words = ['Valley', 'Lakeside', 'Summit', 'Harbor', 'Prairie'];
    const synthetic = Array.from({ length: Math.max(0, total - have) }, (_, i) =>
      buildCollege({ name: `Synthetic ${words[i % words.length]} College ${i + 1}` }),
    );
    for (let i = 0; i < synthetic.length; i += 500) await repo.upsertColleges(synthetic.slice(i, i + 500));
    // What autovacuum does shortly after a bulk load: statistics for the planner, and the visibility map
    // that lets the suggestion index's version check read the updated_at index alone.
    await db.exec('VACUUM ANALYZE colleges.college');
    await db.exec('VACUUM ANALYZE colleges.college_alias');
    const names = (
      await db.query<{ name: string }>('SELECT name FROM colleges.college ORDER BY id')
    ).rows.map((r) => r.name);
    return { names, gathered: synthetic.map((c) => c.name) };
  } finally {
    await db.close();
  }
}

/** Verified students with fresh ID tokens from the Auth emulator (FIREBASE_AUTH_EMULATOR_HOST). */
export function createStudents(n: number): Promise<TestUser[]> {
  return pool(
    Array.from({ length: n }, (_, i) => i),
    8,
    (i) => createVerifiedUser({ name: `Bench Student ${i + 1}` }),
  );
}

/** A JSON call to the API as a signed-in student; throws unless it answers 2xx. */
export async function api(
  baseUrl: string,
  token: string,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<unknown> {
  const res = await fetch(`${baseUrl}/api${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const json: unknown = await res.json().catch(() => null);
  if (!res.ok) throw new Error(`${method} ${path}: HTTP ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** Gives every student `perStudent` colleges of `names`, through add-user-college. */
export async function seedStudentLists(
  baseUrl: string,
  students: TestUser[],
  names: string[],
  perStudent: number,
): Promise<string[][]> {
  const lists = students.map((_, i) =>
    Array.from({ length: perStudent }, (_, k) => names[(i * perStudent + k) % names.length]!),
  );
  // One student's adds one after another (the list is serialised per student), students in parallel.
  await pool(students, 16, async (s, i) => {
    for (const collegeName of lists[i]!)
      await api(baseUrl, s.idToken, 'POST', '/add-user-college', { collegeName });
  });
  return lists;
}

/** VACUUM ANALYZE of tables a run filled through the API (Postgres), as autovacuum would shortly after. */
export async function vacuumAnalyze(url: string, tables: string[]): Promise<void> {
  const db = await openDb({ url });
  try {
    for (const t of tables) await db.exec(`VACUUM ANALYZE ${t}`);
  } finally {
    await db.close();
  }
}
