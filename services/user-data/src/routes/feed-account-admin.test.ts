import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { aidDates, localToday, ROUTES, type Note } from '@ct/contracts';
import { buildGateway, GatewayConfig } from '@ct/gateway';
import { parseConfig } from '@ct/service-kit';
import { createVerifiedUser, gatewaySuite, WEB_DIST, type TestUser } from '@ct/testkit';
import userData from '../app.ts';
import ical, { type VEvent } from 'node-ical';
import { beforeAll, describe, expect, it } from 'vitest';
import { as, collegeWith, twoUsers } from './test-helpers.ts';

const INTERNAL_TOKEN = 'user-data-tests-internal-token-0123456789';
let alice: TestUser;
let bob: TestUser;

const { gw } = gatewaySuite({
  queue: 'memory',
  env: { INTERNAL_TOKEN },
  colleges: [collegeWith('Example State University'), collegeWith('Northfield College')],
});
beforeAll(async () => {
  [alice, bob] = await twoUsers();
});

const addNote = (user: TestUser, title: string, deadline: string | null = null, content = 'Details') =>
  as(gw, user).post<{ data: Note }>('/add-note', { note: { title, content, deadline } });

function events(text: string): VEvent[] {
  return Object.values(ical.sync.parseICS(text)).filter((c): c is VEvent => c?.type === 'VEVENT');
}

describe('private calendar link', () => {
  let path = '';

  it('starts without a link', async () => {
    const r = await as(gw, alice).get('/calendar-feed', { userId: alice.uid });
    expect(r.body).toEqual({
      success: true,
      message: 'Calendar link status',
      data: { active: false, createdAt: null, lastUsedAt: null },
    });
  });

  it('creates an unguessable link whose feed parses as iCalendar, never at a floating time', async () => {
    await as(gw, alice).post('/add-user-college', { collegeName: 'Example State University' });
    await addNote(alice, 'Scholarship essay', '2026-12-01', 'Rotary club, 500 words');
    await addNote(alice, 'No date');
    const r = await as(gw, alice).post<{ message: string; data: { path: string; createdAt: string } }>(
      '/create-calendar-feed',
      { userId: alice.uid },
    );
    expect(r.status).toBe(200);
    expect(r.body.message).toBe(
      'Calendar link created. Copy it now: for your privacy it is shown only once.',
    );
    path = r.body.data.path;
    expect(path).toMatch(/^\/api\/calendar\/[A-Za-z0-9_-]{43}\/deadlines\.ics$/);

    const feed = await gw.api<string>('GET', path);
    expect(feed.status).toBe(200);
    expect(String(feed.headers['content-type'])).toMatch(/^text\/calendar/);
    expect(String(feed.headers['cache-control'])).toContain('private');
    const text = feed.body;
    expect(text.startsWith('BEGIN:VCALENDAR\r\n')).toBe(true);
    expect(text).toContain('PRODID:college-ready/deadlines');
    const evs = events(text);
    // Titles name the plan; with a college on the list come the FAFSA and CSS Profile dates too.
    const aid = aidDates(localToday());
    expect(evs.map((e) => String(e.summary)).sort()).toEqual(
      [
        'Example State University: Early Action',
        'Example State University: Regular Decision',
        'Scholarship essay',
        'College reply deadline (May 1)',
        ...aid.map((a) => a.title),
      ].sort(),
    );
    // A whole day, or a moment with its zone: never a floating time.
    for (const s of text
      .split('BEGIN:VEVENT')
      .slice(1)
      .map((v) => /^DTSTART[^\r\n]*/m.exec(v)?.[0]))
      expect(s).toMatch(/^DTSTART(;VALUE=DATE:\d{8}|;TZID=[A-Za-z_/]+:\d{8}T235900)$/);
    const essay = evs.find((e) => String(e.summary) === 'Scholarship essay')!;
    expect(String(essay.description)).toBe('Rotary club, 500 words');
    expect([essay.start.getFullYear(), essay.start.getMonth() + 1, essay.start.getDate()]).toEqual([
      2026, 12, 1,
    ]);
    expect(new Set(evs.map((e) => e.uid)).size).toBe(4 + aid.length);

    const status = await as(gw, alice).get<{ data: { active: boolean; lastUsedAt: string | null } }>(
      '/calendar-feed',
    );
    expect(status.body.data.active).toBe(true);
    expect(status.body.data.lastUsedAt).not.toBeNull();
  });

  it('keeps event ids stable between fetches, so subscribed calendars update in place', async () => {
    const a = events((await gw.api<string>('GET', path)).body).map((e) => e.uid);
    const b = events((await gw.api<string>('GET', path)).body).map((e) => e.uid);
    expect(b).toEqual(a);
  });

  it('stops the old link when a new one is made, and every link when revoked', async () => {
    const r = await as(gw, alice).post<{ data: { path: string } }>('/create-calendar-feed', {});
    const old = await gw.api('GET', path);
    expect(old.status).toBe(404);
    expect(old.body).toMatchObject({
      success: false,
      message: 'This calendar link is not valid. It may have been revoked; create a new one on your profile.',
    });
    expect((await gw.api('GET', r.body.data.path)).status).toBe(200);
    const revoked = await as(gw, alice).post('/revoke-calendar-feed', { userId: alice.uid });
    expect(revoked.body).toMatchObject({
      success: true,
      message: 'Calendar link revoked. Calendars using it will stop updating.',
      data: { active: false },
    });
    expect((await gw.api('GET', r.body.data.path)).status).toBe(404);
    expect((await gw.api('GET', '/api/calendar/guess/deadlines.ics')).status).toBe(404);
  });

  it('never writes the secret of a link to the logs', async () => {
    const lines: string[] = [];
    const logStream = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const config = parseConfig(GatewayConfig, {
      LOG_LEVEL: 'info',
      GATEWAY_MODE: 'embedded',
      DATA_DIR: 'memory://',
      WEB_DIST,
      FIREBASE_AUTH_EMULATOR_HOST: process.env.FIREBASE_AUTH_EMULATOR_HOST ?? '',
    });
    const logged = await buildGateway({ config, db: gw.db, modules: [userData], logStream });
    try {
      const r = await logged.app.inject({
        method: 'POST',
        url: '/api/create-calendar-feed',
        headers: { authorization: `Bearer ${bob.idToken}` },
        payload: {},
      });
      const feedPath = (r.json() as { data: { path: string } }).data.path;
      const token = feedPath.split('/')[3]!;
      expect((await logged.app.inject({ method: 'GET', url: feedPath })).statusCode).toBe(200);
      const log = lines.join('');
      expect(log).toContain('/api/calendar/[redacted]/deadlines.ics');
      expect(log).not.toContain(token);
    } finally {
      await logged.close();
    }
    await as(gw, bob).post('/revoke-calendar-feed', {});
  });

  it('serves an empty but valid calendar to a student with no deadlines', async () => {
    const r = await as(gw, bob).post<{ data: { path: string } }>('/create-calendar-feed', {});
    const feed = await gw.api<string>('GET', r.body.data.path);
    expect(feed.status).toBe(200);
    expect(feed.body).toContain('BEGIN:VCALENDAR');
    expect(events(feed.body)).toEqual([]);
    await as(gw, bob).post('/revoke-calendar-feed', {});
  });
});

describe('export and delete my data', () => {
  it('exports colleges with their checklists, notes and the link status', async () => {
    const r = await as(gw, alice).get<{ message: string; data: Record<string, unknown> }>('/export-my-data', {
      userId: alice.uid,
    });
    expect(r.status).toBe(200);
    expect(r.body.message).toBe('Your data');
    const data = r.body.data as {
      userId: string;
      colleges: Array<{ collegeName: string; checklist: Record<string, unknown> }>;
      notes: Note[];
      calendarFeed: { active: boolean };
    };
    expect(data.userId).toBe(alice.uid);
    expect(data.colleges.map((c) => c.collegeName)).toEqual(['Example State University']);
    expect(Object.keys(data.colleges[0]!.checklist)).toContain('deadlines');
    expect(data.notes.map((n) => n.title)).toEqual(['Scholarship essay', 'No date']);
    expect(data.calendarFeed.active).toBe(false);
  });

  it("deletes everything of the student, and nothing of anyone else's", async () => {
    const erin = await createVerifiedUser({ name: 'Erin' });
    await as(gw, erin).post('/add-user-college', { collegeName: 'Northfield College' });
    // A removed college whose checklist is kept for Undo goes too.
    await as(gw, erin).post('/add-user-college', { collegeName: 'Example State University' });
    await as(gw, erin).post('/remove-user-college', { collegeName: 'Example State University' });
    await addNote(erin, 'Erin note', '2026-09-09');
    await as(gw, erin).post('/update-academic-profile', {
      satReadingWriting: 650,
      satMath: 700,
      act: null,
      gpa: 3.8,
      yearlyBudget: 20000,
      testOptional: ['Northfield College'],
    });
    await as(gw, erin).post('/create-calendar-feed', {});
    await as(gw, erin).post('/update-student-profile', { homeState: 'ME', incomeBand: '0-30000' });
    const draft = { prompt: 'Why Northfield?', body: 'Because of the lake.' };
    await as(gw, erin).post('/save-essay-draft', draft);
    await as(gw, erin).post('/save-essay-draft', {
      ...draft,
      body: 'Because.',
      baseRevision: 1,
      keepVersion: true,
    });
    await as(gw, erin).post('/save-recommender', {
      collegeName: 'Northfield College',
      recommenderId: randomUUID(),
      who: 'Ms. Rivera',
    });
    await as(gw, erin).post('/update-application', {
      collegeName: 'Northfield College',
      status: 'submitted',
    });
    await as(gw, erin).post('/save-aid-offer', {
      collegeName: 'Northfield College',
      offer: { costOfAttendance: null, grants: [], workStudy: 2000, loans: [], totalAidStated: null },
    });
    const r = await as(gw, erin).post('/delete-my-data', { userId: erin.uid });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      success: true,
      message:
        'Your colleges, checklists, notes, calendar link, profile, essay drafts, recommenders, applications and aid offers were deleted.',
      data: { colleges: 1, notes: 1 },
    });
    const after = await as(gw, erin).get<{ data: Record<string, unknown> }>('/export-my-data');
    expect(after.body.data).toMatchObject({
      colleges: [],
      removedColleges: [],
      notes: [],
      calendarFeed: { active: false },
    });
    expect((await as(gw, alice).get<{ notes: Note[] }>('/get-notes')).body.notes).toHaveLength(2);
    // Nothing keyed by the student's uid is left behind, not even the admin summary row.
    const left = await gw.db.query<{ n: number }>(
      `SELECT (SELECT count(*) FROM user_data.student WHERE user_id = $1)
            + (SELECT count(*) FROM user_data.note WHERE user_id = $1)
            + (SELECT count(*) FROM user_data.user_college WHERE user_id = $1)
            + (SELECT count(*) FROM user_data.removed_college WHERE user_id = $1)
            + (SELECT count(*) FROM user_data.calendar_feed WHERE user_id = $1)
            + (SELECT count(*) FROM user_data.student_profile WHERE user_id = $1)
            + (SELECT count(*) FROM user_data.academic_profile WHERE user_id = $1)
            + (SELECT count(*) FROM user_data.essay_draft WHERE user_id = $1)
            + (SELECT count(*) FROM user_data.essay_draft_version v
               JOIN user_data.essay_draft d ON d.id = v.draft_id WHERE d.user_id = $1)
            + (SELECT count(*) FROM user_data.recommender WHERE user_id = $1)
            + (SELECT count(*) FROM user_data.application WHERE user_id = $1)
            + (SELECT count(*) FROM user_data.aid_offer WHERE user_id = $1) AS n`,
      [erin.uid],
    );
    expect(left.rows[0]?.n).toBe(0);
  });
});

describe('every user route refuses another student', () => {
  const samples: Record<string, (victim: string) => { query?: Record<string, unknown>; body?: unknown }> = {
    'GET /get-user-colleges': (userId) => ({ query: { userId } }),
    'POST /add-user-college': (userId) => ({ body: { userId, collegeName: 'Northfield College' } }),
    'POST /remove-user-college': (userId) => ({ body: { userId, collegeName: 'Example State University' } }),
    'GET /get-college-checklist': (userId) => ({
      query: { userId, collegeName: 'Example State University' },
    }),
    'POST /update-checklist': (userId) => ({
      body: {
        userId,
        collegeName: 'Example State University',
        section: 'application',
        itemIndex: 0,
        completed: true,
      },
    }),
    'GET /get-college-resources-demographics': (userId) => ({
      query: { userId, collegeName: 'Example State University' },
    }),
    'GET /get-notes': (userId) => ({ query: { userId } }),
    'POST /add-note': (userId) => ({ body: { userId, note: { title: 'Injected', content: 'x' } } }),
    'POST /update-note': (userId) => ({
      body: { userId, noteTitle: 'Bob note', noteContent: 'Overwritten' },
    }),
    'POST /remove-note': (userId) => ({ body: { userId, noteTitle: 'Bob note' } }),
    'GET /get-deadlines': (userId) => ({ query: { userId } }),
    'GET /get-deadline-settings': (userId) => ({ query: { userId } }),
    'POST /update-deadline-settings': (userId) => ({ body: { userId, reminderDays: [10] } }),
    'GET /calendar-feed': (userId) => ({ query: { userId } }),
    'POST /create-calendar-feed': (userId) => ({ body: { userId } }),
    'POST /revoke-calendar-feed': (userId) => ({ body: { userId } }),
    'GET /export-my-data': (userId) => ({ query: { userId } }),
    'POST /delete-my-data': (userId) => ({ body: { userId } }),
    'GET /download-deadlines.ics': (userId) => ({ query: { userId } }),
    'GET /get-student-profile': (userId) => ({ query: { userId } }),
    'POST /update-student-profile': (userId) => ({
      body: { userId, homeState: 'TX', incomeBand: '110001+' },
    }),
    'GET /get-academic-profile': (userId) => ({ query: { userId } }),
    'POST /update-academic-profile': (userId) => ({
      body: {
        userId,
        satReadingWriting: 200,
        satMath: 200,
        act: null,
        gpa: null,
        yearlyBudget: 0,
        testOptional: [],
      },
    }),
    'GET /get-essay-drafts': (userId) => ({ query: { userId } }),
    'POST /save-essay-draft': (userId) => ({ body: { userId, prompt: 'Why us?', body: 'Overwritten' } }),
    'GET /get-essay-draft-versions': (userId) => ({
      query: { userId, draftId: '00000000-0000-4000-8000-000000000000' },
    }),
    'GET /get-recommenders': (userId) => ({ query: { userId, collegeName: 'Example State University' } }),
    'POST /save-recommender': (userId) => ({
      body: { userId, collegeName: 'Example State University', recommenderId: randomUUID(), who: 'Injected' },
    }),
    'POST /remove-recommender': (userId) => ({
      body: { userId, recommenderId: '00000000-0000-4000-8000-000000000000' },
    }),
    'GET /get-season': (userId) => ({ query: { userId } }),
    'GET /get-list-outcomes': (userId) => ({ query: { userId } }),
    'POST /update-application': (userId) => ({
      body: { userId, collegeName: 'Example State University', status: 'withdrawn' },
    }),
    'POST /save-aid-offer': (userId) => ({
      body: {
        userId,
        collegeName: 'Example State University',
        offer: { costOfAttendance: 1, grants: [], workStudy: 0, loans: [], totalAidStated: null },
      },
    }),
    'POST /remove-aid-offer': (userId) => ({ body: { userId, collegeName: 'Example State University' } }),
    'GET /get-share-links': (userId) => ({ query: { userId } }),
    'POST /create-share-link': (userId) => ({ body: { userId, label: 'Injected' } }),
    'POST /revoke-share-link': (userId) => ({ body: { userId, id: '1' } }),
    'GET /get-reminder-settings': (userId) => ({ query: { userId } }),
    'POST /subscribe-reminders': (userId) => ({
      body: {
        userId,
        subscription: {
          endpoint: 'https://fcm.googleapis.com/fcm/send/injected',
          keys: { p256dh: 'B'.repeat(87), auth: 'A'.repeat(22) },
        },
      },
    }),
    'POST /unsubscribe-reminders': (userId) => ({
      body: { userId, endpoint: 'https://fcm.googleapis.com/fcm/send/injected' },
    }),
    'POST /update-reminder-settings': (userId) => ({ body: { userId, paused: true } }),
    'GET /get-digest-settings': (userId) => ({ query: { userId } }),
    'POST /update-digest-settings': (userId) => ({ body: { userId, enabled: false } }),
  };

  it('covers every user route of the service', () => {
    const userRoutes = ROUTES.filter((r) => r.service === 'user-data' && r.access === 'user').map(
      (r) => `${r.method} ${r.path}`,
    );
    expect(Object.keys(samples).sort()).toEqual(userRoutes.sort());
  });

  it("answers 403 to a userId that is not the caller's, and leaves the victim's data alone", async () => {
    const victim = await createVerifiedUser({ name: 'Victim' });
    await as(gw, victim).post('/add-user-college', { collegeName: 'Example State University' });
    await addNote(victim, 'Bob note', '2026-08-08');
    await as(gw, victim).post('/create-calendar-feed', {});
    await as(gw, victim).post('/update-student-profile', { homeState: 'ME', incomeBand: '0-30000' });
    await as(gw, victim).post('/save-essay-draft', { prompt: 'Why us?', body: 'Mine' });
    await as(gw, victim).post('/save-recommender', {
      collegeName: 'Example State University',
      recommenderId: randomUUID(),
      who: 'Mr. Chen',
    });
    await as(gw, victim).post('/update-application', {
      collegeName: 'Example State University',
      status: 'admitted',
      plan: 'RD',
    });
    await as(gw, victim).post('/save-aid-offer', {
      collegeName: 'Example State University',
      offer: {
        costOfAttendance: 60000,
        grants: [{ name: 'Grant', amount: 20000 }],
        workStudy: 0,
        loans: [],
        totalAidStated: null,
      },
    });
    const before = (await as(gw, victim).get('/export-my-data')).body.data as Record<string, unknown>;
    for (const [key, sample] of Object.entries(samples)) {
      const [method, path] = key.split(' ') as ['GET' | 'POST', string];
      const r = await gw.api(method, `/api${path}`, {
        token: alice.idToken,
        ...sample(victim.uid),
      });
      expect({ key, status: r.status, message: r.body.message }).toEqual({
        key,
        status: 403,
        message: 'You can only access your own data',
      });
    }
    const after = (await as(gw, victim).get('/export-my-data')).body.data as Record<string, unknown>;
    expect({ ...after, exportedAt: null }).toEqual({ ...before, exportedAt: null });
  });

  it('keeps internal routes out of reach from outside', async () => {
    for (const path of [
      '/api/internal/user-data/stats',
      '/api/internal/user-colleges',
      '/api/internal/profile-notes',
    ]) {
      const r = await gw.api('GET', path, { token: alice.idToken });
      expect(r.status).toBe(404);
      const forged = await gw.api('GET', path, {
        headers: { 'x-internal-token': 'not-the-token-not-the-token' },
      });
      expect(forged.status).toBe(404);
    }
  });
});

describe('internal routes for the admin service', () => {
  const internal = (path: string, query: Record<string, unknown> = {}) =>
    gw.api<Record<string, unknown>>('GET', `/api/internal${path}`, {
      query,
      internal: true,
    });

  it('counts profiles, notes and list entries', async () => {
    const r = await internal('/user-data/stats');
    expect(r.status).toBe(200);
    const { rows } = await gw.db.query<{ notes: number; colleges: number; profiles: number }>(
      `SELECT (SELECT count(*)::int FROM user_data.note) AS notes,
              (SELECT count(*)::int FROM user_data.user_college) AS colleges,
              (SELECT count(*)::int FROM (SELECT user_id FROM user_data.note UNION SELECT user_id FROM user_data.user_college) u) AS profiles`,
    );
    expect(r.body).toEqual({
      profiles: rows[0]!.profiles,
      notes: rows[0]!.notes,
      userColleges: rows[0]!.colleges,
    });
    expect(rows[0]!.notes).toBeGreaterThan(0);
  });

  it('lists user colleges and notes by student, filtered by user id and paginated', async () => {
    const all = await internal('/user-colleges', { limit: 200 });
    const items = all.body.items as Array<{ userId: string; colleges: Array<{ collegeName: string }> }>;
    expect(all.body.total).toBe(items.length);
    expect(items.find((i) => i.userId === alice.uid)?.colleges).toEqual([
      { collegeName: 'Example State University' },
    ]);
    const mine = await internal('/user-colleges', { userId: alice.uid.slice(2, 12) });
    expect(mine.body).toEqual({
      total: 1,
      items: [{ userId: alice.uid, colleges: [{ collegeName: 'Example State University' }] }],
    });
    const page = await internal('/user-colleges', { limit: 1, offset: 1 });
    expect((page.body.items as unknown[]).length).toBe(1);
    expect(page.body.total).toBe(all.body.total);

    // The notes listing names its reader (the notes-read trail records who read whose notes).
    const reader = { uid: 'an-admin', email: 'admin@example.com', emailVerified: true, name: 'Admin' };
    const readNotes = (query: Record<string, unknown>) =>
      gw.api<Record<string, unknown>>('GET', '/api/internal/profile-notes', { query, internal: reader });
    expect((await internal('/profile-notes', { userId: alice.uid })).status).toBe(401);
    const notes = await readNotes({ userId: alice.uid });
    expect(notes.body).toMatchObject({
      total: 1,
      items: [
        {
          userId: alice.uid,
          notes: [
            { title: 'Scholarship essay', content: 'Rotary club, 500 words', createdAt: expect.any(String) },
            { title: 'No date', content: 'Details', createdAt: expect.any(String) },
          ],
        },
      ],
    });
    const none = await readNotes({ userId: '%' });
    expect(none.body).toEqual({ total: 0, items: [] });
  });
});
