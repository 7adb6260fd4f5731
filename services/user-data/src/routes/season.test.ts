import { addDays, entryYear, localToday, type DeadlineItem, type SeasonCollege } from '@ct/contracts';
import { createVerifiedUser, gatewaySuite, type TestUser } from '@ct/testkit';
import { beforeAll, describe, expect, it } from 'vitest';
import { as, collegeWith, seedColleges, twoUsers } from './test-helpers.ts';

let alice: TestUser;
let bob: TestUser;

const today = localToday();
const entry = entryYear(today);
const COLBY = 'Colby Season College';
const BATES = 'Bates Season College';
const ROLLING = 'Rolling Season University';

const { gw } = gatewaySuite({
  queue: 'memory',
  colleges: [
    collegeWith(COLBY, {
      deadlines: [
        { type: 'Early Decision II', date: addDays(today, 30) },
        { type: 'Regular Decision', date: addDays(today, 60) },
      ],
    }),
    collegeWith(BATES, {
      deadlines: [
        { type: 'Early Action', date: addDays(today, 10) },
        { type: 'Restrictive Early Action', date: addDays(today, 12) },
        { type: 'Regular Decision', date: addDays(today, 70) },
      ],
    }),
    collegeWith(ROLLING, { deadlines: [{ type: 'Rolling admission', date: null }] }),
  ],
});
beforeAll(async () => {
  [alice, bob] = await twoUsers();
  for (const name of [COLBY, BATES]) await as(gw, alice).post('/add-user-college', { collegeName: name });
});

type Season = { success: boolean; today: string; colleges: SeasonCollege[] };
type One = { success: boolean; message: string; data: SeasonCollege };
const season = async (u: TestUser) => (await as(gw, u).get<Season>('/get-season')).body;
const update = (u: TestUser, body: Record<string, unknown>) =>
  as(gw, u).post<One & { code?: string }>('/update-application', body);
const deadlines = async (u: TestUser) =>
  (await as(gw, u).get<{ deadlines: DeadlineItem[] }>('/get-deadlines')).body.deadlines;

describe('the season overview', () => {
  it('shows every college of the list with its plans, next deadline, checklist and recommenders', async () => {
    const s = await season(alice);
    expect(s.today).toBe(today);
    expect(s.colleges.map((c) => c.collegeName)).toEqual([COLBY, BATES]);
    const [colby, bates] = s.colleges as [SeasonCollege, SeasonCollege];
    expect(colby.plansOffered).toEqual(['ED', 'RD']);
    expect(bates.plansOffered).toEqual(['EA', 'REA', 'RD']);
    expect(colby.application).toMatchObject({ status: 'researching', plan: null, portalSetUp: false });
    // No plan chosen yet: the first application deadline to come.
    expect(bates.nextDate).toMatchObject({ type: 'Early Action', date: addDays(today, 10) });
    expect(colby.checklist.done).toBe(0);
    expect(colby.checklist.total).toBeGreaterThan(5);
    expect(colby.recommenders).toEqual({ total: 0, asked: 0, submitted: 0 });
    expect(colby.aidOffer).toBeNull();
  });

  it('is empty for a new student, and never shows another student’s colleges', async () => {
    const s = await season(bob);
    expect(s.colleges).toEqual([]);
  });

  it('follows the chosen plan to its deadline, and counts recommenders asked and submitted', async () => {
    const r = await update(alice, { collegeName: BATES, plan: 'RD' });
    expect(r.status).toBe(200);
    expect(r.body.message).toBe('Application updated');
    expect(r.body.data.nextDate).toMatchObject({ type: 'Regular Decision', date: addDays(today, 70) });
    await as(gw, alice).post('/save-recommender', {
      collegeName: BATES,
      recommenderId: crypto.randomUUID(),
      who: 'Ms. Rivera',
      askedOn: today,
    });
    await as(gw, alice).post('/save-recommender', {
      collegeName: BATES,
      recommenderId: crypto.randomUUID(),
      who: 'Mr. Chen',
      askedOn: today,
      submittedOn: today,
    });
    const bates = (await season(alice)).colleges.find((c) => c.collegeName === BATES)!;
    expect(bates.recommenders).toEqual({ total: 2, asked: 2, submitted: 1 });
  });
});

describe('status through to the decision', () => {
  it('estimates the decision of a submitted application and puts it in the calendar and the ICS file', async () => {
    const r = await update(alice, {
      collegeName: COLBY,
      plan: 'ED',
      status: 'submitted',
      submittedOn: today,
    });
    expect(r.status).toBe(200);
    expect(r.body.data.expectedDecision).toEqual({ date: `${entry - 1}-12-15`, estimated: true });
    expect(r.body.data.seasonDates).toContainEqual({
      type: 'Decision expected (estimated)',
      date: `${entry - 1}-12-15`,
    });
    expect(await deadlines(alice)).toContainEqual(
      expect.objectContaining({
        collegeName: COLBY,
        deadlineType: 'Decision expected (estimated)',
        deadlineDate: `${entry - 1}-12-15`,
      }),
    );
    const ics = await gw.api<string>('GET', '/api/download-deadlines.ics', { token: alice.idToken });
    expect(ics.body).toContain(`SUMMARY:${COLBY}: Decision expected (estimated)`);
    // The date the student types in replaces the estimate.
    const typed = await update(alice, { collegeName: COLBY, expectedDecisionOn: addDays(today, 20) });
    expect(typed.body.data.expectedDecision).toEqual({ date: addDays(today, 20), estimated: false });
  });

  it('gives an admission its reply date, deposit and aid-review reminder; a waitlist its letter of continued interest', async () => {
    const admitted = await update(alice, {
      collegeName: COLBY,
      status: 'admitted-with-aid',
      decisionOn: today,
    });
    expect(admitted.body.data.seasonDates).toEqual(
      expect.arrayContaining([
        { type: 'Decision received', date: today },
        { type: 'Reply by (May 1)', date: `${entry}-05-01` },
        { type: 'Enrollment deposit due', date: `${entry}-05-01` },
        { type: 'Ask for an aid review (appeal) before replying', date: addDays(`${entry}-05-01`, -21) },
      ]),
    );
    await update(alice, { collegeName: BATES, status: 'submitted' });
    const wait = await update(alice, { collegeName: BATES, status: 'waitlisted', decisionOn: today });
    expect(wait.body.data.seasonDates).toContainEqual({
      type: 'Send a letter of continued interest',
      date: addDays(today, 7),
    });
    const all = await deadlines(alice);
    expect(all).toContainEqual(
      expect.objectContaining({
        collegeName: BATES,
        deadlineType: 'Send a letter of continued interest',
        deadlineDate: addDays(today, 7),
      }),
    );
    expect(all).toContainEqual(
      expect.objectContaining({
        collegeName: COLBY,
        deadlineType: 'Reply by (May 1)',
        deadlineDate: `${entry}-05-01`,
      }),
    );
    // Housing and a deposit date of the college's own follow when typed in.
    const housing = await update(alice, {
      collegeName: COLBY,
      depositDue: addDays(today, 40),
      housingDue: addDays(today, 45),
    });
    expect(housing.body.data.seasonDates).toEqual(
      expect.arrayContaining([
        { type: 'Enrollment deposit due', date: addDays(today, 40) },
        { type: 'Housing application due', date: addDays(today, 45) },
      ]),
    );
    expect(housing.body.data.nextDate).toMatchObject({
      type: 'Enrollment deposit due',
      date: addDays(today, 40),
    });
  });

  it('keeps a portal link and its tick, and refuses a link carrying a password', async () => {
    const ok = await update(alice, {
      collegeName: COLBY,
      portalUrl: 'https://apply.colby.example/portal',
      portalSetUp: true,
    });
    expect(ok.body.data.application).toMatchObject({
      portalUrl: 'https://apply.colby.example/portal',
      portalSetUp: true,
    });
    const bad = await update(alice, {
      collegeName: COLBY,
      portalUrl: 'https://me:secret@apply.colby.example/',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe(
      'The portal link must not contain a user name or password. Keep your password in the portal.',
    );
  });

  it('refuses bad input with a clear message and changes nothing', async () => {
    const before = await season(alice);
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [
        { status: 'accepted' },
        400,
        'The status must be one of researching, applying, submitted, admitted, admitted-with-aid, deferred, waitlisted, denied, withdrawn, enrolled, declined',
      ],
      [{ plan: 'ED3' }, 400, 'The plan must be one of ED, EA, REA, RD, rolling, or empty'],
      [
        { decisionOn: '1999-01-01' },
        400,
        'The decision date must be a real date within three years of today (YYYY-MM-DD)',
      ],
      [
        { replyBy: addDays(today, 4000) },
        400,
        'The reply date must be a real date within three years of today (YYYY-MM-DD)',
      ],
      [
        { submittedOn: '2026-02-30' },
        400,
        'The submission date must be a real date within three years of today (YYYY-MM-DD)',
      ],
      [
        { portalUrl: 'javascript:alert(1)' },
        400,
        'The portal link must be a web address starting with http:// or https:// (at most 500 characters)',
      ],
    ];
    for (const [body, status, message] of cases) {
      const r = await update(alice, { collegeName: COLBY, ...body });
      expect({ body, status: r.status, message: r.body.message }).toEqual({ body, status, message });
    }
    // Bates is waitlisted: it cannot be enrolled or declined before an admission.
    const early = await update(alice, { collegeName: BATES, status: 'enrolled' });
    expect(early.status).toBe(409);
    expect(early.body.message).toBe(
      'Enrolled and declined answer an admission: set the status to admitted first.',
    );
    const after = await season(alice);
    expect(after).toEqual(before);
  });

  it('enrolls at one college only', async () => {
    expect((await update(alice, { collegeName: COLBY, status: 'enrolled' })).status).toBe(200);
    await update(alice, { collegeName: BATES, status: 'admitted' });
    const second = await update(alice, { collegeName: BATES, status: 'enrolled' });
    expect(second.status).toBe(409);
    expect(second.body.message).toBe(
      `You are already enrolled at ${COLBY}. Change that college's status first: you can enroll at one college only.`,
    );
    expect((await update(alice, { collegeName: BATES, status: 'declined' })).status).toBe(200);
  });

  it('answers 404 for a college not on the list, and another student cannot reach the application', async () => {
    const r = await update(bob, { collegeName: COLBY, status: 'withdrawn' });
    expect(r.status).toBe(404);
    const forged = await gw.api('POST', '/api/update-application', {
      token: bob.idToken,
      body: { userId: alice.uid, collegeName: COLBY, status: 'withdrawn' },
    });
    expect(forged.status).toBe(403);
    const colby = (await season(alice)).colleges.find((c) => c.collegeName === COLBY)!;
    expect(colby.application.status).toBe('enrolled');
  });
});

describe('a change made offline (sent later with what the student saw)', () => {
  it('is applied when nothing changed meanwhile, refused with what changed when it did, and never overwrites', async () => {
    const carol = await createVerifiedUser({ name: 'Carol' });
    await as(gw, carol).post('/add-user-college', { collegeName: COLBY });
    const offline = await update(carol, {
      collegeName: COLBY,
      status: 'applying',
      seen: { status: 'researching' },
    });
    expect(offline.status).toBe(200);
    expect(offline.body.data.application.status).toBe('applying');

    // Changed on another device meanwhile: the phone's change (made when it still saw "Applying") is refused.
    await update(carol, { collegeName: COLBY, status: 'submitted', plan: 'RD', submittedOn: today });
    const stale = await update(carol, {
      collegeName: COLBY,
      status: 'withdrawn',
      plan: 'ED',
      seen: { status: 'applying', plan: 'RD' },
    });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('STALE_ITEM');
    expect(stale.body.message).toBe(
      'This application was changed elsewhere meanwhile (now status: Submitted); nothing was overwritten. Open it to see it, and change it again if you still want to.',
    );
    const colby = (await season(carol)).colleges.find((c) => c.collegeName === COLBY)!;
    expect(colby.application).toMatchObject({ status: 'submitted', plan: 'RD' });

    // Changed elsewhere to what this change sets: no conflict.
    const same = await update(carol, {
      collegeName: COLBY,
      status: 'submitted',
      seen: { status: 'applying' },
    });
    expect(same.status).toBe(200);
  });
});

describe('aid offers', () => {
  const offer = {
    costOfAttendance: 82000,
    grants: [
      { name: 'Colby Grant', amount: 50000 },
      { name: 'Pell Grant', amount: 7000 },
    ],
    workStudy: 3000,
    loans: [{ kind: 'federal-subsidized', amount: 3500 }],
    totalAidStated: null,
  };

  it('saves an award letter, exports it, and removes it', async () => {
    const r = await as(gw, alice).post<One>('/save-aid-offer', { collegeName: COLBY, offer });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ message: 'Aid offer saved', data: { aidOffer: offer } });
    const exported = await as(gw, alice).get<{ data: { aidOffers: unknown[]; applications: unknown[] } }>(
      '/export-my-data',
    );
    expect(exported.body.data.aidOffers).toContainEqual({ collegeId: expect.any(String), ...offer });
    expect(exported.body.data.applications).toContainEqual(
      expect.objectContaining({ status: 'enrolled', plan: 'ED', portalSetUp: true }),
    );
    // Another student sees none of it.
    expect((await as(gw, bob).post('/remove-aid-offer', { collegeName: COLBY })).status).toBe(404);
    const removed = await as(gw, alice).post<One>('/remove-aid-offer', { collegeName: COLBY });
    expect(removed.body).toMatchObject({ message: 'Aid offer removed', data: { aidOffer: null } });
    const again = await as(gw, alice).post('/remove-aid-offer', { collegeName: COLBY });
    expect(again.status).toBe(404);
    expect(again.body.message).toBe('There is no aid offer saved for this college.');
  });

  it('refuses grants above the cost, negative amounts and unnamed grants, and changes nothing', async () => {
    await as(gw, alice).post('/save-aid-offer', { collegeName: BATES, offer });
    const cases: Array<[unknown, string]> = [
      [
        { ...offer, costOfAttendance: 40000 },
        "Grants and scholarships ($57,000) cannot be more than the cost of attendance ($40,000). Check the letter's figures.",
      ],
      [
        { ...offer, workStudy: -1 },
        'Amounts must be whole dollars from $0 to $1,000,000 (no negative amounts)',
      ],
      [
        { ...offer, loans: [{ kind: 'private', amount: -500 }] },
        'Amounts must be whole dollars from $0 to $1,000,000 (no negative amounts)',
      ],
      [{ ...offer, grants: [{ name: '   ', amount: 10 }] }, 'Name each grant or scholarship'],
      [
        { ...offer, loans: [{ kind: 'payday', amount: 10 }] },
        expect.stringContaining('The loan kind must be one of'),
      ],
    ];
    for (const [bad, message] of cases) {
      const r = await as(gw, alice).post('/save-aid-offer', { collegeName: BATES, offer: bad });
      expect({ status: r.status, message: r.body.message }).toEqual({ status: 400, message });
    }
    const bates = (await season(alice)).colleges.find((c) => c.collegeName === BATES)!;
    expect(bates.aidOffer).toEqual(offer);
  });
});

describe('a student with no colleges', () => {
  it('gets an empty season, and season dates leave nothing behind in the calendar', async () => {
    const carol = await createVerifiedUser({ name: 'Carol' });
    await seedColleges(gw.db, [
      collegeWith(ROLLING, { deadlines: [{ type: 'Rolling admission', date: null }] }),
    ]);
    await as(gw, carol).post('/add-user-college', { collegeName: ROLLING });
    const r = await update(carol, {
      collegeName: ROLLING,
      plan: 'rolling',
      status: 'submitted',
      submittedOn: today,
    });
    expect(r.body.data.plansOffered).toEqual(['rolling']);
    expect(r.body.data.expectedDecision).toEqual({ date: addDays(today, 42), estimated: true });
    await as(gw, carol).post('/remove-user-college', { collegeName: ROLLING });
    expect((await season(carol)).colleges).toEqual([]);
    expect(await deadlines(carol)).toEqual([]);
  });
});
