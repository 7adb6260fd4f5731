import { CollegeIngestedEvent, EVENT_SUBSCRIBERS, type Checklist, type ChecklistItem } from '@ct/contracts';
import { EventBus, openQueue, type QueueBackend } from '@ct/queue';
import { gatewaySuite, TEST_REDIS_URL, type TestUser } from '@ct/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, collegeWith, seedColleges, twoUsers } from './test-helpers.ts';

let alice: TestUser;
let bob: TestUser;
let publisher: QueueBackend;

const ESU = 'Example State University';
const NORTH = 'Northfield College';

const { gw } = gatewaySuite({
  colleges: [collegeWith(ESU), collegeWith(NORTH), collegeWith('Lakeside Institute')],
});
beforeAll(async () => {
  [alice, bob] = await twoUsers();
  // Publishes on the same Redis prefix as the gateway, as the ingestion worker would.
  publisher = openQueue({ url: TEST_REDIS_URL, prefix: gw.prefix });
});
afterAll(async () => {
  await publisher?.close();
});

type ChecklistReply = { success: boolean; message: string; checklist: Checklist };
const checklistOf = async (user: TestUser, collegeName: string) =>
  (await as(gw, user).get<ChecklistReply>('/get-college-checklist', { collegeName })).body.checklist;

describe('your colleges', () => {
  it('starts empty', async () => {
    const r = await as(gw, alice).get('/get-user-colleges', { userId: alice.uid });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true, message: 'Colleges Found For User', colleges: [] });
  });

  it('refuses anonymous callers with the spec message', async () => {
    const r = await gw.api('POST', '/api/add-user-college', { body: { collegeName: ESU } });
    expect(r.status).toBe(401);
    expect(r.body).toMatchObject({ success: false, message: 'User not authenticated' });
  });

  it('refuses a college the colleges service does not know', async () => {
    const r = await as(gw, alice).post('/add-user-college', { userId: alice.uid, collegeName: 'Nowhere U' });
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ success: false, code: 'NOT_FOUND' });
    expect(r.body.message).toBe(
      'We have no data for "Nowhere U" yet. Search for it on the Search page first, then add it to your profile.',
    );
    expect((await as(gw, alice).get('/get-user-colleges')).body.colleges).toEqual([]);
  });

  it('adds a college by any of its names, under its official name, once', async () => {
    const r = await as(gw, alice).post('/add-user-college', {
      userId: alice.uid,
      collegeName: 'example state university alias',
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      success: true,
      message: 'College successfully added to your profile!',
      data: { collegeId: 'example state university', collegeName: ESU },
    });
    const again = await as(gw, alice).post('/add-user-college', { collegeName: ESU.toUpperCase() });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('Example State University is already in your colleges.');
    const list = await as(gw, alice).get<{ colleges: Array<{ collegeName: string }> }>('/get-user-colleges');
    expect(list.body.colleges.map((c) => c.collegeName)).toEqual([ESU]);
  });

  it("creates the college's checklist: camelCase sections, tasks and read-only deadline items", async () => {
    const r = await as(gw, alice).get<ChecklistReply>('/get-college-checklist', {
      userId: alice.uid,
      collegeName: ESU,
    });
    expect(r.status).toBe(200);
    expect(r.body.message).toBe('Checklist found');
    const c = r.body.checklist;
    expect(Object.keys(c)).toEqual([
      'application',
      'testing',
      'recommendations',
      'essays',
      'financialAid',
      'deadlines',
    ]);
    expect(c.deadlines).toEqual([
      { type: 'Early Action', date: '2026-11-01', completed: false },
      { type: 'Regular Decision', date: '2027-01-15', completed: false },
    ]);
    expect(c.essays).toContainEqual({ text: 'Write your essay: Why us?', completed: false });
    expect(c.testing?.[0]).toEqual({
      text: 'Check the SAT/ACT policy (Optional) and decide whether to send scores',
      completed: false,
    });
    for (const items of Object.values(c).slice(0, 5))
      for (const item of items) expect(item).toEqual({ text: expect.any(String), completed: false });
  });

  it("answers a college's resources and demographics", async () => {
    const r = await as(gw, alice).get<Record<string, unknown>>('/get-college-resources-demographics', {
      collegeName: ESU,
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      success: true,
      message: 'Resources and Demographics found',
      resources: {
        links: ['https://www.example.edu/admissions'],
        tips: ['Visit campus if you can.'],
        admissionStatistics: { overallAcceptanceRate: 0.45, year: '2024' },
      },
      demographics: { schoolCity: 'Springfield', schoolState: 'IL', studentFacRatio: 16 },
    });
    const notListed = await as(gw, alice).get('/get-college-resources-demographics', { collegeName: NORTH });
    expect(notListed.status).toBe(404);
    expect(notListed.body.message).toBe('"Northfield College" is not in your colleges.');
  });

  it('removes a college with its checklist', async () => {
    await as(gw, alice).post('/add-user-college', { collegeName: NORTH });
    const r = await as(gw, alice).post('/remove-user-college', { userId: alice.uid, collegeName: NORTH });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      success: true,
      message: 'College removed from your profile',
      data: [{ collegeId: 'example state university', collegeName: ESU }],
    });
    const gone = await as(gw, alice).get('/get-college-checklist', { collegeName: NORTH });
    expect(gone.status).toBe(404);
    const twice = await as(gw, alice).post('/remove-user-college', { collegeName: NORTH });
    expect(twice.status).toBe(404);
    expect(twice.body.message).toBe('"Northfield College" is not in your colleges.');
    // Adding it again brings back its checklist (kept for 30 days).
    const back = await as(gw, alice).post('/add-user-college', { collegeName: NORTH });
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ restored: true });
    await as(gw, alice).post('/remove-user-college', { collegeName: NORTH });
  });
});

describe('a removed college keeps its progress for 30 days', () => {
  const keptRow = (user: TestUser, name: string) =>
    gw.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM user_data.removed_college WHERE user_id = $1 AND college_name = $2`,
      [user.uid, name],
    );

  it('restores ticks, own tasks and the place in the list when it is added again', async () => {
    const [erin] = await twoUsers();
    const me = as(gw, erin);
    for (const collegeName of [ESU, NORTH, 'Lakeside Institute'])
      await me.post('/add-user-college', { collegeName });
    await me.post('/update-checklist', {
      collegeName: NORTH,
      section: 'application',
      itemIndex: 0,
      completed: true,
    });
    const mine = await checklistOf(erin, NORTH);
    const withTask = {
      ...mine,
      testing: [...(mine.testing ?? []), { text: 'Book the SAT', completed: true }],
    };
    await me.post('/update-checklist', { collegeName: NORTH, checklist: withTask });
    const before = await checklistOf(erin, NORTH);

    const removed = await me.post('/remove-user-college', { collegeName: NORTH });
    expect(removed.body).toMatchObject({ message: 'College removed from your profile' });
    expect((await me.get('/get-college-checklist', { collegeName: NORTH })).status).toBe(404);
    expect(
      (await me.get<{ colleges: Array<{ collegeName: string }> }>('/get-user-colleges')).body.colleges.map(
        (c) => c.collegeName,
      ),
    ).toEqual([ESU, 'Lakeside Institute']);

    const r = await me.post('/add-user-college', { collegeName: NORTH });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      success: true,
      message: 'College added back to your profile, with its checklist progress.',
      restored: true,
      data: { collegeName: NORTH },
    });
    expect(await checklistOf(erin, NORTH)).toEqual(before);
    // Back in its own place, not at the end.
    expect(
      (await me.get<{ colleges: Array<{ collegeName: string }> }>('/get-user-colleges')).body.colleges.map(
        (c) => c.collegeName,
      ),
    ).toEqual([ESU, NORTH, 'Lakeside Institute']);
    expect((await keptRow(erin, NORTH)).rows[0]?.n).toBe(0);
  });

  it('brings the college deadlines up to date on restore, keeping the tick of one that still exists', async () => {
    const [finn] = await twoUsers();
    const name = 'Restore Deadlines College';
    await seedColleges(gw.db, [collegeWith(name)]);
    await as(gw, finn).post('/add-user-college', { collegeName: name });
    const ea = (await checklistOf(finn, name)).deadlines!.findIndex(
      (d) => 'type' in d && d.type === 'Early Action',
    );
    await as(gw, finn).post('/update-checklist', {
      collegeName: name,
      section: 'deadlines',
      itemIndex: ea,
      completed: true,
    });
    await as(gw, finn).post('/remove-user-college', { collegeName: name });
    // Meanwhile the college's data changed: Regular Decision moved and Early Decision appeared.
    await seedColleges(gw.db, [
      collegeWith(name, {
        deadlines: [
          { type: 'Early Decision', date: '2026-11-15' },
          { type: 'Early Action', date: '2026-11-01' },
          { type: 'Regular Decision', date: '2027-01-05' },
        ],
      }),
    ]);
    expect((await as(gw, finn).post('/add-user-college', { collegeName: name })).body).toMatchObject({
      restored: true,
    });
    const deadlines = (await checklistOf(finn, name)).deadlines;
    expect(deadlines).toEqual([
      { type: 'Early Decision', date: '2026-11-15', completed: false },
      { type: 'Early Action', date: '2026-11-01', completed: true },
      { type: 'Regular Decision', date: '2027-01-05', completed: false },
    ]);
  });

  it('starts afresh after 30 days, and the purge forgets what is older', async () => {
    const [gina, hal] = await twoUsers();
    for (const u of [gina, hal]) {
      await as(gw, u).post('/add-user-college', { collegeName: ESU });
      await as(gw, u).post('/update-checklist', {
        collegeName: ESU,
        section: 'application',
        itemIndex: 0,
        completed: true,
      });
      await as(gw, u).post('/remove-user-college', { collegeName: ESU });
    }
    // Gina removed hers 31 days ago; Hal 29 days ago.
    await gw.db.query(
      `UPDATE user_data.removed_college SET removed_at = now() - make_interval(days => $2) WHERE user_id = $1`,
      [gina.uid, 31],
    );
    await gw.db.query(
      `UPDATE user_data.removed_college SET removed_at = now() - make_interval(days => $2) WHERE user_id = $1`,
      [hal.uid, 29],
    );
    // Not yet purged, but too old to come back: a fresh checklist.
    const fresh = await as(gw, gina).post('/add-user-college', { collegeName: ESU });
    expect(fresh.body).toMatchObject({
      message: 'College successfully added to your profile!',
      restored: false,
    });
    expect((await checklistOf(gina, ESU)).application?.[0]?.completed).toBe(false);
    expect((await keptRow(gina, ESU)).rows[0]?.n).toBe(0);

    await as(gw, gina).post('/remove-user-college', { collegeName: ESU });
    await gw.db.query(
      `UPDATE user_data.removed_college SET removed_at = now() - interval '40 days' WHERE user_id = $1`,
      [gina.uid],
    );
    const { UserCollegeRepository } = await import('../repositories/colleges.ts');
    const purged = await new UserCollegeRepository(gw.db).purgeRemoved(30);
    expect(purged).toBeGreaterThanOrEqual(1);
    expect((await keptRow(gina, ESU)).rows[0]?.n).toBe(0);
    expect((await keptRow(hal, ESU)).rows[0]?.n).toBe(1);
    const back = await as(gw, hal).post('/add-user-college', { collegeName: ESU });
    expect(back.body).toMatchObject({ restored: true });
    expect((await checklistOf(hal, ESU)).application?.[0]?.completed).toBe(true);
  });

  it('follows its college when that college is merged into another', async () => {
    const [jo] = await twoUsers();
    const from = 'Merge Source College';
    const into = 'Merge Target University';
    await seedColleges(gw.db, [collegeWith(from), collegeWith(into)]);
    await as(gw, jo).post('/add-user-college', { collegeName: from });
    await as(gw, jo).post('/update-checklist', {
      collegeName: from,
      section: 'application',
      itemIndex: 0,
      completed: true,
    });
    await as(gw, jo).post('/remove-user-college', { collegeName: from });
    const { UserCollegeRepository } = await import('../repositories/colleges.ts');
    await new UserCollegeRepository(gw.db).moveCollege(
      'merge source college',
      { key: 'merge target university', name: into },
      null,
      () => null,
    );
    expect((await keptRow(jo, from)).rows[0]?.n).toBe(0);
    const back = await as(gw, jo).post('/add-user-college', { collegeName: into });
    expect(back.body).toMatchObject({ restored: true });
    expect((await checklistOf(jo, into)).application?.[0]?.completed).toBe(true);
  });

  it('lists the kept ones in the data export', async () => {
    const [ivy] = await twoUsers();
    await as(gw, ivy).post('/add-user-college', { collegeName: NORTH });
    await as(gw, ivy).post('/remove-user-college', { collegeName: NORTH });
    const r = await as(gw, ivy).get<{
      data: {
        colleges: unknown[];
        removedColleges: Array<{ collegeName: string; removedAt: string; checklist: Checklist }>;
      };
    }>('/export-my-data');
    expect(r.body.data.colleges).toEqual([]);
    expect(r.body.data.removedColleges).toHaveLength(1);
    expect(r.body.data.removedColleges[0]).toMatchObject({ collegeName: NORTH });
    expect(Object.keys(r.body.data.removedColleges[0]!.checklist)).toContain('application');
  });
});

describe('limits and missing data', () => {
  it('keeps at most 100 colleges on a list', async () => {
    const many = Array.from({ length: 101 }, (_, i) => collegeWith(`Limit Test College ${i}`));
    await seedColleges(gw.db, many);
    const carol = (await twoUsers())[0];
    for (const c of many.slice(0, 100))
      expect((await as(gw, carol).post('/add-user-college', { collegeName: c.name })).status).toBe(200);
    const r = await as(gw, carol).post('/add-user-college', { collegeName: many[100]!.name });
    expect(r.status).toBe(409);
    expect(r.body.message).toBe('You can have at most 100 colleges. Remove one to add another.');
    expect(
      (await as(gw, carol).get<{ colleges: unknown[] }>('/get-user-colleges')).body.colleges,
    ).toHaveLength(100);
  });

  it('says so when the colleges service no longer has a listed college', async () => {
    const dave = (await twoUsers())[0];
    await seedColleges(gw.db, [collegeWith('Vanishing College')]);
    await as(gw, dave).post('/add-user-college', { collegeName: 'Vanishing College' });
    await gw.db.query(`DELETE FROM colleges.college WHERE name = 'Vanishing College'`);
    const r = await as(gw, dave).get('/get-college-resources-demographics', {
      collegeName: 'Vanishing College',
    });
    expect(r.status).toBe(404);
    expect(r.body.message).toBe(
      'We no longer have data for "Vanishing College". Search for it again to refresh it.',
    );
    // The student's own checklist is still there.
    expect(
      (await as(gw, dave).get('/get-college-checklist', { collegeName: 'Vanishing College' })).status,
    ).toBe(200);
  });
});

describe('update-checklist', () => {
  it('ticks one item and keeps it', async () => {
    const r = await as(gw, alice).post<ChecklistReply>('/update-checklist', {
      userId: alice.uid,
      collegeName: ESU,
      section: 'application',
      itemIndex: 0,
      completed: true,
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, message: 'Checklist updated' });
    expect((await checklistOf(alice, ESU)).application?.[0]?.completed).toBe(true);
  });

  it('refuses a toggle on a stale item, and changes nothing', async () => {
    const before = await checklistOf(alice, ESU);
    const wrongText = await as(gw, alice).post('/update-checklist', {
      collegeName: ESU,
      section: 'application',
      itemIndex: 1,
      completed: true,
      itemText: 'Some item that used to be here',
    });
    expect(wrongText.status).toBe(409);
    expect(wrongText.body).toMatchObject({
      success: false,
      code: 'STALE_ITEM',
      message:
        'This checklist item has changed since you loaded it (the checklist was updated elsewhere). Reload the checklist and try again.',
    });
    const outOfRange = await as(gw, alice).post('/update-checklist', {
      collegeName: ESU,
      section: 'application',
      itemIndex: 99,
      completed: true,
    });
    expect(outOfRange.status).toBe(409);
    const noSection = await as(gw, alice).post('/update-checklist', {
      collegeName: ESU,
      section: 'sports',
      itemIndex: 0,
      completed: true,
    });
    expect(noSection.status).toBe(409);
    expect(await checklistOf(alice, ESU)).toEqual(before);
  });

  it('applies a toggle whose guard matches, deadline items included', async () => {
    const r = await as(gw, alice).post<ChecklistReply>('/update-checklist', {
      collegeName: ESU,
      section: 'deadlines',
      itemIndex: 0,
      completed: true,
      itemText: 'Early Action',
    });
    expect(r.status).toBe(200);
    expect(r.body.checklist.deadlines?.[0]).toEqual({
      type: 'Early Action',
      date: '2026-11-01',
      completed: true,
    });
  });

  it('keeps both of two concurrent toggles of different items', async () => {
    const toggles = [0, 1, 2, 3, 4].map((i) =>
      as(gw, alice).post('/update-checklist', {
        collegeName: ESU,
        section: 'financialAid',
        itemIndex: i % 4,
        completed: true,
      }),
    );
    const more = as(gw, alice).post('/update-checklist', {
      collegeName: ESU,
      section: 'recommendations',
      itemIndex: 2,
      completed: true,
    });
    const results = await Promise.all([...toggles, more]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const c = await checklistOf(alice, ESU);
    expect(c.financialAid?.map((i) => i.completed)).toEqual([true, true, true, true]);
    expect(c.recommendations?.[2]?.completed).toBe(true);
  });

  it('replaces the whole checklist, but never lets the client rewrite deadline items', async () => {
    const c = await checklistOf(alice, ESU);
    const edited: Checklist = {
      ...c,
      application: [
        { text: 'Start the application early', completed: true },
        { text: '   ', completed: false },
        ...(c.application ?? []).slice(2),
        { text: 'Ask about an interview', completed: false },
      ],
      // The client tries to move a date, drop the other deadline and invent one.
      deadlines: [
        { type: 'Early Action', date: '2026-12-24', completed: true },
        { type: 'Made-up Deadline', date: '2026-10-01', completed: false },
      ],
    };
    const r = await as(gw, alice).post<ChecklistReply>('/update-checklist', {
      userId: alice.uid,
      collegeName: ESU,
      checklist: edited,
    });
    expect(r.status).toBe(200);
    const saved = await checklistOf(alice, ESU);
    expect(saved).toEqual(r.body.checklist);
    expect(saved.application?.[0]).toEqual({ text: 'Start the application early', completed: true });
    expect(saved.application?.at(-1)).toEqual({ text: 'Ask about an interview', completed: false });
    expect(saved.application?.some((i) => 'text' in i && !i.text.trim())).toBe(false);
    expect(saved.deadlines).toEqual([
      { type: 'Early Action', date: '2026-11-01', completed: true },
      { type: 'Regular Decision', date: '2027-01-15', completed: false },
    ]);
  });

  it('keeps a deadline tick sent in a whole replace', async () => {
    const c = await checklistOf(alice, ESU);
    const deadlines = (c.deadlines ?? []).map((d) => ({ ...d, completed: true }));
    await as(gw, alice).post('/update-checklist', { collegeName: ESU, checklist: { ...c, deadlines } });
    expect((await checklistOf(alice, ESU)).deadlines?.every((d) => d.completed)).toBe(true);
    await as(gw, alice).post('/update-checklist', {
      collegeName: ESU,
      checklist: { ...c, deadlines: c.deadlines ?? [] },
    });
  });

  it('refuses malformed checklists with a clear message and changes nothing', async () => {
    const before = await checklistOf(alice, ESU);
    const badKey = await as(gw, alice).post('/update-checklist', {
      collegeName: ESU,
      checklist: { 'Not Camel': [{ text: 'x', completed: false }] },
    });
    expect(badKey.status).toBe(400);
    expect(badKey.body).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
    expect(badKey.body.message).toBe(
      'Invalid checklist: sections are named in camelCase (for example financialAid), at most 30 of them',
    );
    const badItem = await as(gw, alice).post('/update-checklist', {
      collegeName: ESU,
      checklist: { application: [{ text: 'x', completed: 'yes' }] },
    });
    expect(badItem.status).toBe(400);
    const badIndex = await as(gw, alice).post('/update-checklist', {
      collegeName: ESU,
      section: 'application',
      itemIndex: -1,
      completed: true,
    });
    expect(badIndex.status).toBe(400);
    expect(await checklistOf(alice, ESU)).toEqual(before);
  });

  it('answers 404 for a college not on the list', async () => {
    const r = await as(gw, alice).post('/update-checklist', {
      collegeName: 'Lakeside Institute',
      section: 'application',
      itemIndex: 0,
      completed: true,
    });
    expect(r.status).toBe(404);
    expect(r.body.message).toBe('"Lakeside Institute" is not in your colleges.');
  });
});

describe('college.ingested', () => {
  it("refreshes deadline items of every student's checklist, keeping ticks and tasks", async () => {
    const LAKE = 'Lakeside Institute';
    await as(gw, alice).post('/add-user-college', { collegeName: LAKE });
    await as(gw, bob).post('/add-user-college', { collegeName: LAKE });
    // Alice ticks Early Action and rewrites a task; Bob ticks nothing.
    await as(gw, alice).post('/update-checklist', {
      collegeName: LAKE,
      section: 'deadlines',
      itemIndex: 0,
      completed: true,
      itemText: 'Early Action',
    });
    const mine = await checklistOf(alice, LAKE);
    mine.testing = [{ text: 'Book the SAT for October', completed: true }];
    mine.deadlines = [...(mine.deadlines ?? []), { text: 'Mail the portfolio', completed: false }];
    await as(gw, alice).post('/update-checklist', { collegeName: LAKE, checklist: mine });
    const esuBefore = await checklistOf(alice, ESU);

    const bus = new EventBus(publisher, EVENT_SUBSCRIBERS);
    await bus.publish(
      CollegeIngestedEvent,
      {
        name: LAKE,
        aliases: [],
        deadlines: [
          { type: 'Early Action', date: '2026-11-15' },
          { type: 'Early Decision', date: '2026-11-01' },
        ],
        essayPrompts: [],
        ingestedAt: new Date().toISOString(),
      },
      `lakeside-${Date.now()}`,
    );

    const expected: ChecklistItem[] = [
      { type: 'Early Action', date: '2026-11-15', completed: true },
      { type: 'Early Decision', date: '2026-11-01', completed: false },
      { text: 'Mail the portfolio', completed: false },
    ];
    await expect
      .poll(async () => (await checklistOf(alice, LAKE)).deadlines, { timeout: 15_000 })
      .toEqual(expected);
    const after = await checklistOf(alice, LAKE);
    expect(after.testing).toEqual([{ text: 'Book the SAT for October', completed: true }]);
    expect(Object.keys(after)).toEqual(Object.keys(mine));
    await expect
      .poll(async () => (await checklistOf(bob, LAKE)).deadlines, { timeout: 15_000 })
      .toEqual([
        { type: 'Early Action', date: '2026-11-15', completed: false },
        { type: 'Early Decision', date: '2026-11-01', completed: false },
      ]);
    // Other colleges are not touched.
    expect(await checklistOf(alice, ESU)).toEqual(esuBefore);
    // The refreshed dates are what get-deadlines gives.
    const d = await as(gw, alice).get<{ deadlines: Array<Record<string, string>> }>('/get-deadlines');
    expect(d.body.deadlines.filter((x) => x.collegeName === LAKE)).toMatchObject([
      { collegeName: LAKE, deadlineType: 'Early Decision', deadlineDate: '2026-11-01' },
      { collegeName: LAKE, deadlineType: 'Early Action', deadlineDate: '2026-11-15' },
    ]);
  });
});
