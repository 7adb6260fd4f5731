import type { Checklist } from '@ct/contracts';
import { gatewaySuite, type TestUser } from '@ct/testkit';
import { beforeAll, describe, expect, it } from 'vitest';
import { UserCollegeRepository } from './repositories/colleges.ts';
import { as, collegeWith, twoUsers } from './routes/test-helpers.ts';

// The embedded run (`npm start`) keeps its data in PGlite: the same SQL, triggers and locks must work there.
const INTERNAL_TOKEN = 'user-data-pglite-internal-token-0123456789';
let alice: TestUser;

const { gw } = gatewaySuite({
  store: 'pglite',
  queue: 'memory',
  env: { INTERNAL_TOKEN },
  colleges: [
    collegeWith('Example State University'),
    collegeWith('Pglite Lakes College'),
    collegeWith('Pglite Hills College'),
  ],
});
beforeAll(async () => {
  [alice] = await twoUsers();
});

describe('user-data on PGlite', () => {
  it('keeps colleges, checklists, notes and the admin counts', async () => {
    expect(
      (await as(gw, alice).post('/add-user-college', { collegeName: 'Example State University' })).status,
    ).toBe(200);
    const toggles = await Promise.all(
      [0, 1, 2].map((i) =>
        as(gw, alice).post('/update-checklist', {
          collegeName: 'Example State University',
          section: 'application',
          itemIndex: i,
          completed: true,
        }),
      ),
    );
    expect(toggles.map((t) => t.status)).toEqual([200, 200, 200]);
    const c = await as(gw, alice).get<{ checklist: Checklist }>('/get-college-checklist', {
      collegeName: 'Example State University',
    });
    expect(c.body.checklist.application?.slice(0, 3).map((i) => i.completed)).toEqual([true, true, true]);
    expect(Object.keys(c.body.checklist)).toEqual([
      'application',
      'testing',
      'recommendations',
      'essays',
      'financialAid',
      'deadlines',
    ]);
    await as(gw, alice).post('/add-note', { note: { title: 'One', content: 'x', deadline: '2026-10-01' } });
    await as(gw, alice).post('/add-note', { note: { title: 'Two', content: 'y' } });
    await as(gw, alice).post('/remove-note', { noteTitle: 'Two' });
    const stats = await gw.api('GET', '/api/internal/user-data/stats', {
      internal: true,
    });
    expect(stats.body).toEqual({ profiles: 1, notes: 1, userColleges: 1 });
    const d = await as(gw, alice).get<{ deadlines: unknown[] }>('/get-deadlines');
    expect(d.body.deadlines).toHaveLength(3);
  });

  it('lists exactly what was just added or removed (the list is kept in memory on PGlite)', async () => {
    const [carol] = await twoUsers();
    const list = async () =>
      (
        await as(gw, carol).get<{ colleges: { collegeName: string }[] }>('/get-user-colleges')
      ).body.colleges.map((c) => c.collegeName);
    expect(await list()).toEqual([]);
    await as(gw, carol).post('/add-user-college', { collegeName: 'Pglite Lakes College' });
    expect(await list()).toEqual(['Pglite Lakes College']);
    // Reads racing a write: whatever they saw, the next read sees the write.
    const [, added] = await Promise.all([
      list(),
      as(gw, carol).post('/add-user-college', { collegeName: 'Pglite Hills College' }),
      list(),
    ]);
    expect(added.status).toBe(200);
    expect(await list()).toEqual(['Pglite Lakes College', 'Pglite Hills College']);
    const removed = await as(gw, carol).post<{ data: { collegeName: string }[] }>('/remove-user-college', {
      collegeName: 'Pglite Lakes College',
    });
    expect(removed.body.data.map((c) => c.collegeName)).toEqual(['Pglite Hills College']);
    expect(await list()).toEqual(['Pglite Hills College']);
    // A college merged into another moves on every list at once.
    await new UserCollegeRepository(gw.db).moveCollege(
      'pglite hills college',
      { key: 'pglite lakes college', name: 'Pglite Lakes College' },
      null,
      (c) => c,
    );
    expect(await list()).toEqual(['Pglite Lakes College']);
    expect((await as(gw, carol).post('/delete-my-data')).status).toBe(200);
    expect(await list()).toEqual([]);
  });
});
