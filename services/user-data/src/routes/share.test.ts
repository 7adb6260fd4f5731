// Read-only share links (issue 33): a student creates, lists and revokes them; whoever holds one sees
// only what it shows, read only; links die with the account, expire, and are limited per student and
// per minute of views.
import { Writable } from 'node:stream';
import { LIMITS, type ShareLink, type SharedView } from '@ct/contracts';
import { buildGateway, GatewayConfig } from '@ct/gateway';
import { parseConfig } from '@ct/service-kit';
import { createVerifiedUser, gatewaySuite, WEB_DIST, type TestUser } from '@ct/testkit';
import userData from '../app.ts';
import ICAL from 'ical.js';
import ical, { type VEvent } from 'node-ical';
import { beforeAll, describe, expect, it } from 'vitest';
import { as, collegeWith } from './test-helpers.ts';

let alice: TestUser;
let bob: TestUser;

interface Created {
  success: boolean;
  message: string;
  data: { id: string; path: string; label: string; scope: string[]; expiresAt: string; createdAt: string };
}

const NOTE = 'Secret plan: skip the interview';
const DRAFT = 'My grandmother taught me to fish on the lake';

const { gw } = gatewaySuite({
  queue: 'memory',
  colleges: [collegeWith('Example State University'), collegeWith('Northfield College')],
});
beforeAll(async () => {
  [alice, bob] = await Promise.all([
    createVerifiedUser({ name: 'Alice Share' }),
    createVerifiedUser({ name: 'Bob Share' }),
  ]);
  const a = as(gw, alice);
  expect((await a.post('/add-user-college', { collegeName: 'Example State University' })).status).toBe(200);
  expect((await a.post('/add-user-college', { collegeName: 'Northfield College' })).status).toBe(200);
  expect(
    (
      await a.post('/update-application', {
        collegeName: 'Northfield College',
        plan: 'EA',
        status: 'submitted',
      })
    ).status,
  ).toBe(200);
  expect(
    (await a.post('/add-note', { note: { title: 'Private', content: NOTE, deadline: '2027-01-02' } })).status,
  ).toBe(200);
  expect((await a.post('/save-essay-draft', { prompt: 'Why us?', body: DRAFT })).status).toBe(200);
  const academic = {
    satReadingWriting: 720,
    satMath: 770,
    act: 33,
    gpa: 3.9,
    yearlyBudget: null,
    testOptional: [],
  };
  expect((await a.post('/update-academic-profile', academic)).status).toBe(200);
});

const create = (user: TestUser, body: Record<string, unknown>) =>
  as(gw, user).post<Created>('/create-share-link', body);
const list = (user: TestUser) => as(gw, user).get<{ data: ShareLink[] }>('/get-share-links');
const view = (path: string) =>
  gw.api<{ success: boolean; message: string; data: SharedView }>('GET', `/api${path}`);

describe('share links', () => {
  let path = '';
  let id = '';

  it('creates a link that shows the list, plan, status, next deadlines, progress and calendar by default', async () => {
    const r = await create(alice, { userId: alice.uid, label: 'Mom' });
    expect(r.status).toBe(200);
    expect(r.body.message).toMatch(/^Share link created\. Copy it now/);
    ({ path, id } = r.body.data);
    expect(path).toMatch(/^\/shared\/[A-Za-z0-9_-]{43}$/);
    expect(r.body.data.scope).toEqual(['plan', 'status', 'deadlines', 'progress', 'calendar']);
    const days = (Date.parse(r.body.data.expiresAt) - Date.parse(r.body.data.createdAt)) / 86_400_000;
    expect(Math.round(days)).toBe(90);

    const v = await view(path);
    expect(v.status).toBe(200);
    expect(String(v.headers['cache-control'])).toBe('no-store');
    expect(String(v.headers['x-robots-tag'])).toContain('noindex');
    const d = v.body.data;
    expect(d.sharedBy).toBe('Alice Share');
    expect(d.colleges.map((c) => c.collegeName)).toEqual(['Example State University', 'Northfield College']);
    const north = d.colleges.find((c) => c.collegeName === 'Northfield College')!;
    expect(north).toMatchObject({ plan: 'EA', status: 'submitted', progress: 0 });
    expect(d.colleges[0]!.status).toBe('researching');
    expect(d.calendarPath).toBe(`/api${path}/deadlines.ics`);
    // Only the coming deadlines, and never a note's.
    for (const dl of d.deadlines ?? []) expect(dl.date >= d.today).toBe(true);
    expect(JSON.stringify(d.deadlines)).not.toContain('Private');
  });

  it('a default link never returns a note, a draft, a score or the e-mail', async () => {
    const v = await view(path);
    const text = JSON.stringify(v.body);
    expect(text).not.toContain(NOTE);
    expect(text).not.toContain(DRAFT);
    expect(text).not.toContain('770');
    expect(text).not.toContain('3.9');
    expect(text).not.toContain(alice.email);
    for (const key of ['notes', 'essayDrafts', 'scores', 'incomeBand', 'email'])
      expect(Object.keys(v.body.data)).not.toContain(key);
    // Nor does its calendar carry a note's deadline.
    const ics = await gw.api<string>('GET', `/api${path}/deadlines.ics`);
    expect(ics.status).toBe(200);
    expect(String(ics.headers['content-type'])).toMatch(/^text\/calendar/);
    const events = Object.values(ical.sync.parseICS(ics.body)).filter(
      (c): c is VEvent => c?.type === 'VEVENT',
    );
    const summaries = events.map((e) => String(e.summary));
    expect(summaries).toContain('Example State University: Regular Decision');
    // Northfield's application is submitted: its application deadlines no longer ring, here either.
    expect(summaries.filter((s) => s.startsWith('Northfield College: Early'))).toEqual([]);
    expect(ics.body).not.toContain('Private');
    // A second parser reads the same events, each a whole day or a time in a zone the file defines.
    const comp = new ICAL.Component(ICAL.parse(ics.body));
    for (const tz of comp.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(tz);
    const read = comp.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));
    expect(read.map((e) => e.summary).sort()).toEqual([...summaries].sort());
    for (const e of read) expect(e.startDate.isDate || e.startDate.zone?.tzid !== 'floating').toBe(true);
  });

  it('shows each private part only when the student opts in', async () => {
    const r = await create(alice, {
      label: 'Counselor',
      scope: ['notes', 'drafts', 'scores', 'email'],
      expiresInDays: 30,
    });
    expect(r.status).toBe(200);
    const d = (await view(r.body.data.path)).body.data;
    expect(d.notes?.map((n) => n.content)).toEqual([NOTE]);
    expect(d.essayDrafts?.map((e) => e.body)).toEqual([DRAFT]);
    expect(d.scores).toMatchObject({ satMath: 770, gpa: 3.9, act: 33 });
    expect(d.email).toBe(alice.email);
    // Not asked for: no plan, status, deadlines or calendar.
    expect(d.colleges[1]).toEqual({ collegeName: 'Northfield College' });
    expect(d.calendarPath).toBeUndefined();
    expect((await gw.api('GET', `/api${r.body.data.path}/deadlines.ics`)).status).toBe(404);
    await as(gw, alice).post('/revoke-share-link', { id: r.body.data.id });
  });

  it('lists links with views and last view, never the token', async () => {
    const r = await list(alice);
    expect(r.status).toBe(200);
    expect(r.body.data).toHaveLength(1);
    const link = r.body.data[0]!;
    expect(link).toMatchObject({
      id,
      label: 'Mom',
      scope: ['plan', 'status', 'deadlines', 'progress', 'calendar'],
    });
    expect(link.viewCount).toBeGreaterThanOrEqual(3);
    expect(link.lastViewedAt).not.toBeNull();
    expect(JSON.stringify(r.body)).not.toContain(path.split('/').pop()!);
    // The export lists the links too.
    const exp = await as(gw, alice).get<{ data: { shareLinks: ShareLink[] } }>('/export-my-data');
    expect(exp.body.data.shareLinks.map((l) => l.label)).toEqual(['Mom']);
  });

  it('refuses bad settings clearly and creates nothing', async () => {
    for (const [body, message] of [
      [{ label: 'Dad', expiresInDays: 366 }, 'A link expires after 1 to 365 days'],
      [{ label: '   ' }, expect.stringMatching(/^Name the link/)],
      [
        { label: 'Dad', scope: ['everything'] },
        expect.stringMatching(/^What a link shows must be chosen from plan/),
      ],
    ] as const) {
      const r = await create(alice, body);
      expect(r.status).toBe(400);
      expect(r.body.message).toEqual(message);
    }
    expect((await list(alice)).body.data).toHaveLength(1);
  });

  it('another student can neither list nor revoke the link', async () => {
    expect((await as(gw, bob).get('/get-share-links', { userId: alice.uid })).status).toBe(403);
    expect((await as(gw, bob).post('/revoke-share-link', { userId: alice.uid, id })).status).toBe(403);
    const r = await as(gw, bob).post<{ message: string }>('/revoke-share-link', { id });
    expect(r.status).toBe(404);
    expect(r.body.message).toBe('You have no such share link. It may have been revoked already.');
    expect((await list(bob)).body.data).toEqual([]);
    expect((await view(path)).status).toBe(200);
  });

  it('revoking kills the link and its calendar at once', async () => {
    const r = await as(gw, alice).post<{ message: string; data: ShareLink[] }>('/revoke-share-link', { id });
    expect(r.status).toBe(200);
    expect(r.body.message).toBe('Share link revoked. It stopped working at once.');
    expect(r.body.data).toEqual([]);
    const v = await view(path);
    expect(v.status).toBe(404);
    expect(v.body.message).toMatch(/^This link no longer works/);
    expect((await gw.api('GET', `/api${path}/deadlines.ics`)).status).toBe(404);
    expect((await view('/shared/not-a-real-token')).status).toBe(404);
  });

  it('an expired link answers 404 and leaves the list', async () => {
    const r = await create(alice, { label: 'Grandpa', expiresInDays: 1 });
    expect((await view(r.body.data.path)).status).toBe(200);
    await gw.db.query(
      `UPDATE user_data.share_link SET expires_at = now() - interval '1 second' WHERE id = $1`,
      [r.body.data.id],
    );
    expect((await view(r.body.data.path)).status).toBe(404);
    expect((await list(alice)).body.data).toEqual([]);
  });

  it(`holds at most ${LIMITS.share.linksPerStudent} links, with a clear message`, async () => {
    for (let i = 0; i < LIMITS.share.linksPerStudent; i++)
      expect((await create(bob, { label: `Link ${i}` })).status).toBe(200);
    const r = await create(bob, { label: 'One too many' });
    expect(r.status).toBe(409);
    expect(r.body.message).toBe(
      'You can have at most 10 share links. Revoke one you no longer need to create another.',
    );
    expect((await list(bob)).body.data).toHaveLength(10);
  });

  it('limits the views of one link a minute', async () => {
    const { path: p } = (await create(alice, { label: 'Busy' })).body.data;
    for (let i = 0; i < LIMITS.share.viewsPerMinute; i++) expect((await view(p)).status).toBe(200);
    const r = await view(p);
    expect(r.status).toBe(429);
    expect(r.body.message).toMatch(/^This link has been opened too often in the last minute/);
    expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('never writes the token of a link to the logs', async () => {
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
        url: '/api/create-share-link',
        headers: { authorization: `Bearer ${alice.idToken}` },
        payload: { label: 'Logged' },
      });
      const { path: p } = (r.json() as Created).data;
      const token = p.split('/')[2]!;
      expect((await logged.app.inject({ method: 'GET', url: `/api${p}` })).statusCode).toBe(200);
      expect((await logged.app.inject({ method: 'GET', url: `/api${p}/deadlines.ics` })).statusCode).toBe(
        200,
      );
      const log = lines.join('');
      expect(log).toContain('/api/shared/[redacted]');
      expect(log).not.toContain(token);
    } finally {
      await logged.close();
    }
  });

  it("a deleted account's links answer 404", async () => {
    const carol = await createVerifiedUser({ name: 'Carol Share' });
    const { path: p } = (await create(carol, { label: 'Aunt' })).body.data;
    expect((await view(p)).status).toBe(200);
    expect((await as(gw, carol).post('/delete-my-data', {})).status).toBe(200);
    expect((await view(p)).status).toBe(404);
    const n = await gw.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM user_data.share_link WHERE user_id = $1',
      [carol.uid],
    );
    expect(n.rows[0]!.n).toBe(0);
  });
});

describe('a link shows only what its scope names (issue 50.7, 50.9)', () => {
  it("a calendar or deadlines link never shows the season's dates; a status link does", async () => {
    const dee = await createVerifiedUser({ name: 'Dee Share' });
    const d = as(gw, dee);
    expect((await d.post('/add-user-college', { collegeName: 'Northfield College' })).status).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    const waitlisted = await d.post('/update-application', {
      collegeName: 'Northfield College',
      status: 'waitlisted',
      decisionOn: today,
    });
    expect(waitlisted.status, JSON.stringify(waitlisted.body)).toBe(200);
    const season = /Decision received|continued interest|aid review|Enrollment deposit|Application submitted/;
    for (const scope of [['deadlines'], ['calendar'], ['deadlines', 'calendar', 'plan']]) {
      const link = (await create(dee, { label: `Only ${scope.join(' ')}`, scope })).body.data;
      const shown = (await view(link.path)).body.data;
      expect(JSON.stringify(shown), scope.join()).not.toMatch(season);
      if (scope.includes('calendar')) {
        const ics = await gw.api<string>('GET', `/api${link.path}/deadlines.ics`);
        expect(ics.status).toBe(200);
        expect(String(ics.body), scope.join()).not.toMatch(season);
      }
    }
    // The student chose to show where each application stands: the season's dates come with it.
    const status = (await create(dee, { label: 'Status too', scope: ['deadlines', 'status'] })).body.data;
    const withStatus = (await view(status.path)).body.data;
    expect(withStatus.deadlines?.map((x) => x.type)).toContain('Send a letter of continued interest');
  });

  it('a scores link shows the GPA and test scores only, never the budget or test-optional choices', async () => {
    const eve = await createVerifiedUser({ name: 'Eve Share' });
    const e = as(gw, eve);
    expect((await e.post('/add-user-college', { collegeName: 'Northfield College' })).status).toBe(200);
    const academic = {
      satReadingWriting: 700,
      satMath: 710,
      act: null,
      gpa: 3.7,
      yearlyBudget: 23_456,
      testOptional: ['Northfield College'],
    };
    expect((await e.post('/update-academic-profile', academic)).status).toBe(200);
    const link = (await create(eve, { label: 'Coach', scope: ['scores'] })).body.data;
    const shown = (await view(link.path)).body.data;
    expect(Object.keys(shown.scores ?? {}).sort()).toEqual([
      'act',
      'gpa',
      'satMath',
      'satReadingWriting',
      'updatedAt',
    ]);
    expect(shown.scores).toMatchObject({ gpa: 3.7, satMath: 710 });
    expect(JSON.stringify(shown)).not.toMatch(/23456|yearlyBudget|testOptional/);
  });

  it('refuses a link name with a line break or a direction override, and creates nothing', async () => {
    const fay = await createVerifiedUser({ name: 'Fay Share' });
    for (const label of ['Mom\r\nX-Injected: 1', 'Mom\u202Egnp.exe', 'Dad\u2066x\u2069']) {
      const r = await create(fay, { label });
      expect(r.status, JSON.stringify(label)).toBe(400);
      expect(r.body.message).toBe(
        'A link name must be one line: no line breaks, tabs, direction marks or other control characters',
      );
    }
    expect((await list(fay)).body.data).toEqual([]);
  });
});
