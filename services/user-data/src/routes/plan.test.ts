import {
  addDays,
  aidDates,
  localToday,
  SHARE_SCOPES,
  type EssayDraft,
  type EssayDraftVersion,
  type Recommender,
  type StudentProfile,
} from '@ct/contracts';
import { randomUUID } from 'node:crypto';
import { buildCollege, createVerifiedUser, gatewaySuite, type TestUser } from '@ct/testkit';
import ical, { type VEvent } from 'node-ical';
import { beforeAll, describe, expect, it } from 'vitest';
import { wallTimeToUtc, ZONES } from '../deadlines/zones.ts';
import { as, collegeWith, seedColleges, twoUsers } from './test-helpers.ts';

let alice: TestUser;
let bob: TestUser;

// Deadlines relative to today, so "ask by" and countdown rules hold whenever the test runs.
const today = localToday();
const SOON = addDays(today, 40);
const LATER = addDays(today, 90);
const PAST = addDays(today, -10);
const COLBY = 'Colby College';
const BATES = 'Bates College';

const { gw } = gatewaySuite({
  queue: 'memory',
  colleges: [
    collegeWith(COLBY, {
      deadlines: [
        { type: 'Early Decision', date: PAST },
        { type: 'CSS Profile priority deadline', date: addDays(today, 20) },
        { type: 'Regular Decision', date: SOON },
      ],
    }),
    collegeWith(BATES, { deadlines: [{ type: 'Regular Decision', date: LATER }] }),
  ],
});
beforeAll(async () => {
  [alice, bob] = await twoUsers();
});

type Reply<T> = { success: boolean; message: string; data: T };

describe('money figures on the dashboard', () => {
  it('carry the data years of their sources when the document states none', async () => {
    const name = 'Snapshot Year College';
    await seedColleges(gw.db, [
      buildCollege({
        name,
        sources: {
          'demographics.finance': {
            url: 'https://collegescorecard.ed.gov/school/?9',
            title: 'College Scorecard, U.S. Department of Education, 2021-22',
            gatheredAt: '2025-01-16T00:00:00.000Z',
          },
          'demographics.finance.medianEarnings': {
            url: 'https://collegescorecard.ed.gov/school/?9',
            title: 'College Scorecard, U.S. Department of Education, 2020-21',
            gatheredAt: '2025-01-16T00:00:00.000Z',
          },
        },
      }),
    ]);
    const dana = await createVerifiedUser({ name: 'Dana' });
    await as(gw, dana).post('/add-user-college', { collegeName: name });
    const r = await as(gw, dana).get<{ demographics: { dataYears?: Record<string, string> } }>(
      '/get-college-resources-demographics',
      { collegeName: name },
    );
    expect(r.body.demographics.dataYears).toEqual({
      netPrice: '2021-22',
      cost: '2021-22',
      debt: '2021-22',
      earnings: '2020-21',
    });
  });
});

describe('money profile', () => {
  it('starts unset, saves a home state and income band, and clears them', async () => {
    const empty = await as(gw, alice).get<Reply<StudentProfile>>('/get-student-profile');
    expect(empty.body).toEqual({
      success: true,
      message: 'Your profile',
      data: { homeState: null, incomeBand: null, pellEligible: null, firstGeneration: null, updatedAt: null },
    });
    const saved = await as(gw, alice).post<Reply<StudentProfile>>('/update-student-profile', {
      userId: alice.uid,
      homeState: 'ME',
      incomeBand: '48001-75000',
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      message: 'Profile saved',
      data: { homeState: 'ME', incomeBand: '48001-75000' },
    });
    expect((await as(gw, alice).get<Reply<StudentProfile>>('/get-student-profile')).body.data).toEqual(
      saved.body.data,
    );
    // Private: another student sees only their own (unset) profile.
    expect((await as(gw, bob).get<Reply<StudentProfile>>('/get-student-profile')).body.data.homeState).toBe(
      null,
    );
    const onlyState = await as(gw, bob).post<Reply<StudentProfile>>('/update-student-profile', {
      homeState: 'TX',
      incomeBand: null,
    });
    expect(onlyState.body.data).toMatchObject({ homeState: 'TX', incomeBand: null });
    const cleared = await as(gw, bob).post<Reply<StudentProfile>>('/update-student-profile', {
      homeState: null,
      incomeBand: null,
    });
    expect(cleared.body.data).toEqual({
      homeState: null,
      incomeBand: null,
      pellEligible: null,
      firstGeneration: null,
      updatedAt: null,
    });
  });

  it("keeps the student's own situation (issue 48), exports it and forgets it with the account", async () => {
    const carol = await createVerifiedUser({ name: 'Carol Situation' });
    const saved = await as(gw, carol).post<Reply<StudentProfile>>('/update-student-profile', {
      homeState: null,
      incomeBand: null,
      pellEligible: true,
      firstGeneration: false,
    });
    expect(saved.body.data).toMatchObject({ homeState: null, pellEligible: true, firstGeneration: false });
    // The money form sends no situation: what the student chose is kept.
    const money = await as(gw, carol).post<Reply<StudentProfile>>('/update-student-profile', {
      homeState: 'OH',
      incomeBand: null,
    });
    expect(money.body.data).toMatchObject({ homeState: 'OH', pellEligible: true, firstGeneration: false });
    const exported = await as(gw, carol).get<{ data: { profile: StudentProfile } }>('/export-my-data');
    expect(exported.body.data.profile).toMatchObject({ pellEligible: true, firstGeneration: false });
    // A parent's link never shows it, whatever its scope.
    const link = await as(gw, carol).post<{ data: { path: string } }>('/create-share-link', {
      label: 'Mom',
      scope: [...SHARE_SCOPES],
    });
    expect(link.status).toBe(200);
    const view = await gw.api('GET', `/api${link.body.data.path}`);
    expect(view.status).toBe(200);
    expect(JSON.stringify(view.body)).not.toMatch(/pellEligible|firstGeneration|pell_eligible/);
    expect((await as(gw, carol).post('/delete-my-data', { userId: carol.uid })).status).toBe(200);
    const left = await gw.db.query('SELECT * FROM user_data.student_profile WHERE user_id = $1', [carol.uid]);
    expect(left.rows).toEqual([]);
  });

  it.each([
    [{ homeState: 'ZZ', incomeBand: null }, 'The home state must be a U.S. state or territory code'],
    [{ homeState: 'me', incomeBand: null }, 'The home state must be a U.S. state or territory code'],
    [{ homeState: null, incomeBand: '50000' }, 'The income band must be one of 0-30000'],
    [{ homeState: 'ME' }, 'is missing "incomeBand"'],
  ])('refuses %j with a clear message and keeps the saved profile', async (body, message) => {
    const r = await as(gw, alice).post('/update-student-profile', body);
    expect(r.status).toBe(400);
    expect(r.body.message).toContain(message);
    expect((await as(gw, alice).get<Reply<StudentProfile>>('/get-student-profile')).body.data).toMatchObject({
      homeState: 'ME',
      incomeBand: '48001-75000',
    });
  });
});

const parse = (text: string) =>
  Object.values(ical.sync.parseICS(text)).filter((c): c is VEvent => c?.type === 'VEVENT');

describe('deadlines with financial aid dates, and the ICS file', () => {
  it('adds the FAFSA and CSS Profile dates of the coming cycle once a college is on the list', async () => {
    const carol = await createVerifiedUser({ name: 'Carol' });
    const none = await as(gw, carol).get('/get-deadlines');
    expect(none.body).toEqual({ success: true, message: 'Deadlines found', deadlines: [] });
    await as(gw, carol).post('/add-user-college', { collegeName: COLBY });
    const r = await as(gw, carol).get<{ aidDates: Array<{ title: string; date: string }> }>('/get-deadlines');
    const y = Number(today.slice(0, 4)) + (Number(today.slice(5, 7)) >= 7 ? 1 : 0);
    expect(r.body.aidDates.map((a) => [a.title, a.date])).toEqual([
      [`FAFSA opens (${y}–${String((y + 1) % 100).padStart(2, '0')})`, `${y - 1}-10-01`],
      [`CSS Profile opens (${y}–${String((y + 1) % 100).padStart(2, '0')})`, `${y - 1}-10-01`],
      ['College reply deadline (May 1)', `${y}-05-01`],
      [`FAFSA federal deadline (${y}–${String((y + 1) % 100).padStart(2, '0')})`, `${y + 1}-06-30`],
    ]);
  });

  it("serves the signed-in student's deadlines as a file: titles name the plan, reminders 30/14/7/1 days before", async () => {
    await as(gw, alice).post('/add-user-college', { collegeName: COLBY });
    await as(gw, alice).post('/add-note', {
      note: { title: 'Interview', content: 'Alumni interview', deadline: SOON },
    });
    const r = await gw.api<string>('GET', '/api/download-deadlines.ics', { token: alice.idToken });
    expect(r.status).toBe(200);
    expect(String(r.headers['content-type'])).toMatch(/^text\/calendar/);
    expect(String(r.headers['content-disposition'])).toBe('attachment; filename="deadlines.ics"');
    expect(String(r.headers['cache-control'])).toContain('private');
    const events = parse(r.body);
    expect(events.map((e) => String(e.summary)).sort()).toEqual(
      [
        'Colby College: Early Decision',
        'Colby College: CSS Profile priority deadline',
        'Colby College: Regular Decision',
        'Interview',
        'College reply deadline (May 1)',
        ...aidDates(today).map((a) => a.title),
      ].sort(),
    );
    const rd = events.find((e) => String(e.summary) === 'Colby College: Regular Decision')!;
    // Due at 11:59 pm in the college's zone (the test college is in Illinois: Central Time).
    expect(rd.start.toISOString()).toBe(wallTimeToUtc(ZONES.central, SOON, 23, 59));
    const rdAlarms = (rd as VEvent & { alarms?: Array<{ action: string; trigger: string }> }).alarms ?? [];
    // SOON is 40 days away: every lead day is still to come, each at 9 am local.
    expect(rdAlarms.map((a) => [a.action, a.trigger])).toEqual([
      ['DISPLAY', '-P30DT14H59M'],
      ['DISPLAY', '-P14DT14H59M'],
      ['DISPLAY', '-P7DT14H59M'],
      ['DISPLAY', '-P1DT14H59M'],
    ]);
    // The subscription feed is the same calendar.
    const link = await as(gw, alice).post<{ data: { path: string } }>('/create-calendar-feed', {});
    const feed = await gw.api<string>('GET', link.body.data.path);
    expect(
      parse(feed.body)
        .map((e) => e.uid)
        .sort(),
    ).toEqual(events.map((e) => e.uid).sort());
  });

  it('refuses the file without a session', async () => {
    const r = await gw.api('GET', '/api/download-deadlines.ics');
    expect(r.status).toBe(401);
  });
});

describe('essay drafts', () => {
  const PROMPT = 'Why Colby? (250 words)';
  const save = (user: TestUser, body: Record<string, unknown>) =>
    as(gw, user).post<Reply<EssayDraft>>('/save-essay-draft', { prompt: PROMPT, ...body });
  const versionsOf = async (user: TestUser, draftId: string) =>
    (
      await as(gw, user).get<{ versions: EssayDraftVersion[] }>('/get-essay-draft-versions', {
        draftId,
      })
    ).body.versions;
  let draft: EssayDraft;

  it('creates a draft per prompt and counts its words', async () => {
    const r = await save(alice, { body: 'The lake at dawn, and the people on it.' });
    expect(r.status).toBe(200);
    expect(r.body.message).toBe('Draft saved');
    draft = r.body.data;
    expect(draft).toMatchObject({
      prompt: PROMPT,
      revision: 1,
      wordCount: 9,
      versions: 0,
      promptKey: 'why colby',
    });
    const list = await as(gw, alice).get<{ drafts: EssayDraft[] }>('/get-essay-drafts');
    expect(list.body.drafts).toEqual([draft]);
    expect((await as(gw, bob).get<{ drafts: EssayDraft[] }>('/get-essay-drafts')).body.drafts).toEqual([]);
  });

  it('shares one draft between prompts that read the same', async () => {
    const r = await as(gw, alice).post<Reply<EssayDraft>>('/save-essay-draft', {
      prompt: '  why Colby?  Answer in 250 words or fewer. ',
      body: 'The lake at dawn, and the people on it. More.',
      baseRevision: 1,
    });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ id: draft.id, revision: 2, prompt: PROMPT, wordCount: 10 });
    draft = r.body.data;
  });

  it('refuses a save based on an older revision, and changes nothing', async () => {
    const stale = await save(alice, { body: 'Written in another tab', baseRevision: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toMatch(/^This draft was changed in another tab or on another device/);
    const fresh = await save(alice, { body: 'Written with no revision' });
    expect(fresh.status).toBe(409);
    const list = await as(gw, alice).get<{ drafts: EssayDraft[] }>('/get-essay-drafts');
    expect(list.body.drafts[0]).toMatchObject({ body: draft.body, revision: 2 });
  });

  it('keeps the text being replaced as a version on request, and lists versions newest first', async () => {
    const before = draft.body;
    const r = await save(alice, { body: 'A whole new start.', baseRevision: 2, keepVersion: true });
    expect(r.body.data).toMatchObject({ revision: 3, versions: 1, body: 'A whole new start.' });
    const versions = await versionsOf(alice, draft.id);
    expect(versions.map((v) => [v.body, v.wordCount])).toEqual([[before, 10]]);
    // Restoring = saving the version's text, keeping what it replaces: nothing is lost either way.
    const restored = await save(alice, { body: versions[0]!.body, baseRevision: 3, keepVersion: true });
    expect(restored.body.data).toMatchObject({ body: before, revision: 4, versions: 2 });
    expect((await versionsOf(alice, draft.id)).map((v) => v.body)).toEqual(['A whole new start.', before]);
    // "Save a version" of unchanged text keeps it once, without a new revision.
    const same = await save(alice, { body: before, baseRevision: 4, keepVersion: true });
    expect(same.body.data).toMatchObject({ revision: 4, versions: 3 });
    const again = await save(alice, { body: before, baseRevision: 4, keepVersion: true });
    expect(again.body.data.versions).toBe(3);
    draft = again.body.data;
  });

  it('keeps a version by itself when the last one is more than 10 minutes old', async () => {
    const quick = await save(alice, { body: `${draft.body} One.`, baseRevision: draft.revision });
    expect(quick.body.data.versions).toBe(3);
    await gw.db.query(
      `UPDATE user_data.essay_draft_version SET created_at = created_at - interval '11 minutes' WHERE draft_id = $1`,
      [draft.id],
    );
    const due = await save(alice, { body: `${draft.body} Two.`, baseRevision: quick.body.data.revision });
    expect(due.body.data.versions).toBe(4);
    expect((await versionsOf(alice, draft.id))[0]!.body).toBe(`${draft.body} One.`);
    draft = due.body.data;
  });

  it("never shows one student's versions to another", async () => {
    const r = await as(gw, bob).get('/get-essay-draft-versions', { draftId: draft.id });
    expect(r.status).toBe(404);
    expect(r.body.message).toBe('Draft not found');
  });

  it.each([
    [{ body: 'x'.repeat(10_001) }, 'A draft can be at most 10,000 characters'],
    [{ prompt: '?!', body: 'x' }, 'The prompt must contain words'],
    [{ body: 'x', baseRevision: -1 }, 'baseRevision'],
  ])('refuses %# with a clear message', async (body, message) => {
    const r = await save(alice, body);
    expect(r.status).toBe(400);
    expect(r.body.message).toContain(message);
    const list = await as(gw, alice).get<{ drafts: EssayDraft[] }>('/get-essay-drafts');
    expect(list.body.drafts).toHaveLength(1);
  });
});

describe('recommenders', () => {
  const get = (user: TestUser, collegeName: string) =>
    as(gw, user).get<{ recommenders: Recommender[]; askBy: Record<string, string> | null; message: string }>(
      '/get-recommenders',
      { collegeName },
    );

  it('asks by four weeks before the earliest application deadline still to come', async () => {
    const r = await get(alice, COLBY);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ message: 'Your recommenders', recommenders: [] });
    // The past Early Decision and the aid deadline do not count; Regular Decision does.
    expect(r.body.askBy).toEqual({
      date: addDays(SOON, -28),
      deadlineType: 'Regular Decision',
      deadlineDate: SOON,
    });
  });

  it('refuses a college that is not on the list', async () => {
    const r = await get(alice, BATES);
    expect(r.status).toBe(404);
    expect(r.body.message).toBe(`"${BATES}" is not in your colleges.`);
    const add = await as(gw, alice).post('/save-recommender', {
      collegeName: BATES,
      recommenderId: randomUUID(),
      who: 'Ms. Rivera',
    });
    expect(add.status).toBe(404);
  });

  it('adds, updates and removes recommenders; another student can touch none of them', async () => {
    const id = randomUUID();
    const add = await as(gw, alice).post<Reply<Recommender>>('/save-recommender', {
      collegeName: 'colby college',
      recommenderId: id,
      who: '  Ms.   Rivera, chemistry ',
      askedOn: today,
    });
    expect(add.status).toBe(200);
    expect(add.body.data).toMatchObject({
      id,
      collegeName: COLBY,
      who: 'Ms. Rivera, chemistry',
      askedOn: today,
      submittedOn: null,
    });
    // Saving the same id again changes it (a retried save adds nothing).
    const done = await as(gw, alice).post<Reply<Recommender>>('/save-recommender', {
      collegeName: COLBY,
      recommenderId: id,
      who: 'Ms. Rivera, chemistry',
      submittedOn: today,
    });
    expect(done.body.data).toMatchObject({ askedOn: today, submittedOn: today });

    const bad = await as(gw, alice).post('/save-recommender', {
      collegeName: COLBY,
      recommenderId: id,
      who: 'Ms. Rivera',
      askedOn: '2027-02-30',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Dates must be real dates (YYYY-MM-DD) or empty');

    await as(gw, bob).post('/add-user-college', { collegeName: COLBY });
    const theirs = await as(gw, bob).post('/save-recommender', {
      collegeName: COLBY,
      recommenderId: id,
      who: 'Taken over',
    });
    expect(theirs.status).toBe(404);
    expect((await as(gw, bob).post('/remove-recommender', { recommenderId: id })).status).toBe(404);
    expect((await get(bob, COLBY)).body.recommenders).toEqual([]);
    expect((await get(alice, COLBY)).body.recommenders).toEqual([done.body.data]);

    const removed = await as(gw, alice).post<Reply<Recommender[]>>('/remove-recommender', {
      recommenderId: id,
    });
    expect(removed.body).toMatchObject({ message: 'Recommender removed', data: [] });
  });

  it('holds at most 10 per college', async () => {
    const add = (who: string, recommenderId = randomUUID()) =>
      as(gw, alice).post('/save-recommender', { collegeName: COLBY, recommenderId, who });
    const ids = Array.from({ length: 10 }, () => randomUUID());
    for (const [i, id] of ids.entries()) expect((await add(`R${i + 1}`, id)).status).toBe(200);
    // Changing one of the ten is still fine; an eleventh is not.
    expect((await add('R1, renamed', ids[0])).status).toBe(200);
    const eleventh = await add('R11');
    expect(eleventh.status).toBe(409);
    expect(eleventh.body.message).toBe('A college can have at most 10 recommenders.');
    expect((await get(alice, COLBY)).body.recommenders).toHaveLength(10);
  });
});
