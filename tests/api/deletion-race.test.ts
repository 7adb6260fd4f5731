// Deletion wins every race (issue 35, item 2): writes already past the gateway's check when an account is
// deleted must not outlive the deletion. Each owning service refuses a write of a deleted uid inside the
// write's own transaction, under the lock the deletion takes (migration 110 of user-data, colleges and
// essays). Several writers hammer the API with the student's token while the account is deleted; after the
// deletion's answer no row names the uid, an admin's listing of notes shows none of theirs, and a calendar
// link made during the race answers 404. Twenty times on real Postgres, five on PGlite.
import { RoleRepository } from '@ct/auth/repositories/roles';
import {
  createVerifiedUser,
  gatewaySuite,
  type ApiResult,
  type TestGateway,
  type TestUser,
} from '@ct/testkit';
import { beforeAll, describe, expect, it } from 'vitest';

/** Real Postgres (the distributed run's store) 20 times; PGlite (`npm start`'s) a few times too. */
const RUNS = [
  ['postgres', 20],
  ['pglite', 5],
] as const;

/** Every text column that names a student, in every service's schema (the rule of account-deletion.test). */
async function rowsNaming(gw: TestGateway, uid: string): Promise<string[]> {
  const cols = await gw.db.query<{ s: string; t: string; c: string }>(
    `SELECT c.table_schema AS s, c.table_name AS t, c.column_name AS c
     FROM information_schema.columns c
     JOIN information_schema.tables t USING (table_schema, table_name)
     WHERE t.table_type = 'BASE TABLE'
       AND c.table_schema NOT IN ('pg_catalog', 'information_schema') AND c.table_schema NOT LIKE 'pg\\_%'
       AND c.data_type IN ('text', 'character varying')
       AND c.column_name ~* '^(uid|user_?id)$|_(uid|user_id|by)$'`,
  );
  const out: string[] = [];
  for (const { s, t, c } of cols.rows) {
    const r = await gw.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM "${s}"."${t}" WHERE "${c}" = $1`,
      [uid],
    );
    if (r.rows[0]!.n > 0) out.push(`${s}.${t}.${c}: ${r.rows[0]!.n}`);
  }
  // A draft's versions name the student through their draft.
  const versions = await gw.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM user_data.essay_draft_version v
     WHERE NOT EXISTS (SELECT 1 FROM user_data.essay_draft d WHERE d.id = v.draft_id)`,
  );
  if (versions.rows[0]!.n > 0) out.push(`orphan versions: ${versions.rows[0]!.n}`);
  return out;
}

describe.each(RUNS)('an account deletion racing the student’s own writes (%s)', (store, ROUNDS) => {
  let admin: TestUser;
  const { gw } = gatewaySuite({ store, queue: 'memory', env: { RUN_WORKER: 'false' } });
  beforeAll(async () => {
    admin = await createVerifiedUser({ name: 'Race Admin' });
    await new RoleRepository(gw.db).grantRole(admin.uid, 'admin', admin.email, 'test');
  });

  it(`leaves nothing behind, ${ROUNDS} times over`, { timeout: 300_000 }, async () => {
    let acceptedAfter = 0;
    let refusedAfter = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const student = await createVerifiedUser({ name: `Racer ${round}` });
      const token = student.idToken;
      let stop = false;
      let deletedAt = 0;
      const feedPaths: string[] = [];
      const successes = [0, 0, 0, 0];
      const after = (r: ApiResult) => {
        if (!deletedAt) return;
        if (r.status === 200) acceptedAfter++;
        else refusedAfter++;
      };
      // Four writers, each as fast as the API answers: notes, calendar links, drafts, the profile.
      const writers = [
        async () => {
          for (let i = 0; !stop; i++) {
            const note = { note: { title: `Race ${i}`, content: 'Written during the race' } };
            const r = await gw.api('POST', '/api/add-note', { token, body: note });
            if (r.status === 200) successes[0]!++;
            after(r);
          }
        },
        async () => {
          while (!stop) {
            const r = await gw.api('POST', '/api/create-calendar-feed', { token, body: {} });
            if (r.status === 200) {
              successes[1]!++;
              feedPaths.push((r.body.data as { path: string }).path);
            }
            after(r);
          }
        },
        async () => {
          for (let i = 0; !stop; i++) {
            const body = { prompt: `Why this college? (${i % 25})`, body: `Draft ${i}`, keepVersion: true };
            const r = await gw.api('POST', '/api/save-essay-draft', { token, body });
            if (r.status === 200) successes[2]!++;
            after(r);
          }
        },
        async () => {
          while (!stop) {
            const body = { homeState: 'CA', incomeBand: '0-30000' };
            const r = await gw.api('POST', '/api/update-student-profile', { token, body });
            if (r.status === 200) successes[3]!++;
            after(r);
          }
        },
      ];
      const running = writers.map((w) => w());
      // The writers are in full flow (every kind has landed at least once) when the deletion comes.
      await expect.poll(() => successes.every((n) => n > 0), { timeout: 10_000 }).toBe(true);
      const del = await gw.api('POST', '/api/delete-account', { token, body: {} });
      expect(del.status, JSON.stringify(del.body)).toBe(200);
      deletedAt = Date.now();
      // Writers keep going a little after the answer, as requests still in flight would.
      const seen = successes.reduce((a, b) => a + b, 0);
      await new Promise((resolve) => setTimeout(resolve, 50));
      stop = true;
      await Promise.all(running);
      expect(seen).toBeGreaterThan(0);

      expect(await rowsNaming(gw, student.uid), `round ${round}`).toEqual([]);
      const listed = await gw.api<{ profileNotes: unknown[] }>('GET', '/api/admin/profile-notes', {
        token: admin.idToken,
        query: { filterUserId: student.uid },
      });
      expect(listed.status).toBe(200);
      expect(listed.body.profileNotes).toEqual([]);
      for (const path of feedPaths) {
        const feed = await gw.api('GET', path);
        expect(feed.status, `round ${round}: ${path}`).toBe(404);
      }
    }
    // Nothing was accepted once the deletion had answered.
    expect(acceptedAfter).toBe(0);
    expect(refusedAfter).toBeGreaterThan(0);
  });
});
