// Issue 31: deadlines a student can trust. Six colleges of the shipped Common App grid, whose only dates
// are last cycle's, on 2026-11-27 (an injected clock): each shows a labelled projected deadline ahead in
// get-deadlines, the season overview, the checklist and the calendar file; the plan prunes the other
// plans' deadlines; a submitted application leaves Coming up; the file and the live feed parse with
// node-ical and ical.js with their zones resolved, with no floating time, no alarm on a past date and
// nothing before the cycle.
import type { College } from '@ct/contracts';
import { CommonAppGrid, gridFacts } from '@ct/providers';
import { buildCollege, createVerifiedUser, gatewaySuite, type TestUser } from '@ct/testkit';
import ICAL from 'ical.js';
import ical, { type VEvent } from 'node-ical';
import { beforeAll, describe, expect, it } from 'vitest';
import { as, seedColleges } from './test-helpers.ts';

const NOW = '2026-11-27T17:00:00Z';
const TODAY = '2026-11-27';
const CYCLE_START = '2026-08-01';

/** The shipped grid's colleges (Scorecard UNITIDs), with where they are. */
const GRID = [
  { id: 166027, state: 'MA', city: 'Cambridge' },
  { id: 168342, state: 'MA', city: 'Williamstown' },
  { id: 139755, state: 'GA', city: 'Atlanta' },
  { id: 130794, state: 'CT', city: 'New Haven' },
  { id: 112260, state: 'CA', city: 'Claremont' },
  { id: 141644, state: 'HI', city: 'Honolulu' },
];
const MANOA = 'University of Hawaii at Manoa';

let alice: TestUser;
let names: string[];

const { gw } = gatewaySuite({ queue: 'memory', env: { USER_DATA_CLOCK: NOW } });
beforeAll(async () => {
  alice = await createVerifiedUser({ name: 'Alice' });
  const grid = await CommonAppGrid.shipped();
  const colleges: College[] = GRID.map(({ id, state, city }) => {
    const entry = grid.entry(id)!;
    const facts = gridFacts(entry, grid.source, new Date(NOW))!;
    return buildCollege({
      name: entry.name,
      scorecardId: id,
      demographics: { schoolState: state, schoolCity: city },
      info: { deadlines: facts.deadlines },
      sources: { 'info.deadlines': { ...grid.source, gatheredAt: NOW } },
    });
  });
  // A Hawaii college off the Common App, with this cycle's date published on its own site.
  colleges.push(
    buildCollege({
      name: MANOA,
      demographics: { schoolState: 'HI', schoolCity: 'Honolulu' },
      info: { deadlines: [{ type: 'Regular Decision', date: '2027-01-05' }] },
      sources: {
        'info.deadlines': { url: 'https://manoa.hawaii.edu/admissions/deadlines', gatheredAt: NOW },
      },
    }),
  );
  await seedColleges(gw.db, colleges);
  names = colleges.slice(0, 6).map((c) => c.name);
  await as(gw, alice).post('/update-student-profile', { homeState: 'CA', incomeBand: null });
  for (const c of colleges) {
    const r = await as(gw, alice).post('/add-user-college', { collegeName: c.name });
    expect(r.status).toBe(200);
  }
  // The student's own note from before the cycle stays theirs.
  await as(gw, alice).post('/add-note', {
    note: {
      title: 'Old SAT date',
      content: 'kept',
      deadline: '2025-05-03',
      createdAt: NOW,
      updatedAt: NOW,
    },
  });
});

interface Item {
  collegeName?: string;
  deadlineType?: string;
  deadlineDate?: string;
  projected?: boolean;
  label?: string;
  kind?: string;
  sourceUrl?: string;
  due?: { at: string; zone: string; basis: string };
  noteId?: string;
  deadline?: string;
}
const deadlines = async () =>
  (await as(gw, alice).get<{ success: boolean; message: string; deadlines: Item[] }>('/get-deadlines')).body;
const ics = async () => {
  const r = await gw.api<string>('GET', '/api/download-deadlines.ics', { token: alice.idToken });
  expect(r.status).toBe(200);
  return r.body;
};
let feedPath = '';
const feed = async () => {
  const r = await gw.api<string>('GET', feedPath);
  expect(r.status).toBe(200);
  return r.body;
};
const events = (text: string) =>
  Object.values(ical.sync.parseICS(text)).filter((c): c is VEvent => c?.type === 'VEVENT');
const summaryOf = (e: VEvent) => String(e.summary);

/**
 * What the downloaded file and the live feed must both be: read by node-ical and ical.js with their zones
 * resolved, each deadline due at 11:59 pm in its zone, no floating time, nothing before the cycle but the
 * student's own note, and no reminder on a past date.
 */
function checkCalendar(text: string) {
  // No floating times: every start is a whole day or carries its zone, and each zone is defined.
  const vevents = text.split('BEGIN:VEVENT').slice(1);
  const starts = vevents.map((v) => /^DTSTART[^\r\n]*/m.exec(v)?.[0] ?? 'none');
  expect(starts.length).toBeGreaterThan(10);
  for (const s of starts) expect(s).toMatch(/^DTSTART(;VALUE=DATE:\d{8}|;TZID=[A-Za-z_/]+:\d{8}T235900)$/);
  for (const tz of new Set(starts.map((s) => /TZID=([^:]+)/.exec(s)?.[1]).filter(Boolean)))
    expect(text).toContain(`BEGIN:VTIMEZONE\r\nTZID:${tz}\r\n`);

  // node-ical
  const evs = events(text);
  const byTitle = (t: string) => evs.find((e) => summaryOf(e) === t);
  // The Common App is due at the student's own 11:59 pm (California: PST, UTC-8).
  expect(byTitle('Harvard University: Regular Decision (expected)')?.start.toISOString()).toBe(
    '2027-01-02T07:59:00.000Z',
  );
  // A Hawaii college off the Common App: 11:59 pm Hawaii time (UTC-10).
  expect(byTitle(`${MANOA}: Regular Decision`)?.start.toISOString()).toBe('2027-01-06T09:59:00.000Z');
  // Nothing before the cycle but the note.
  for (const e of evs)
    if (e.start.toISOString().slice(0, 10) < CYCLE_START) expect(summaryOf(e)).toBe('Old SAT date');

  // ical.js, with the file's own VTIMEZONEs registered
  const comp = new ICAL.Component(ICAL.parse(text));
  for (const tz of comp.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(tz);
  const jsEvents = comp.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));
  expect(jsEvents.length).toBe(evs.length);
  const jsBy = (t: string) => jsEvents.find((e) => e.summary === t)!;
  expect(jsBy('Harvard University: Regular Decision (expected)').startDate.toJSDate().toISOString()).toBe(
    '2027-01-02T07:59:00.000Z',
  );
  expect(jsBy(`${MANOA}: Regular Decision`).startDate.toJSDate().toISOString()).toBe(
    '2027-01-06T09:59:00.000Z',
  );
  // No reminder on a past date: every alarm rings today or later, at 9 am local on its day.
  const today = Date.parse(`${TODAY}T00:00:00-10:00`);
  let alarms = 0;
  for (const e of jsEvents) {
    const start = e.startDate;
    for (const a of e.component.getAllSubcomponents('valarm')) {
      alarms++;
      const trigger = a.getFirstPropertyValue('trigger') as ICAL.Duration;
      const at = start.clone();
      // A whole day's reminder counts from its midnight.
      if (at.isDate) at.isDate = false;
      at.addDuration(trigger);
      expect(at.hour, e.summary).toBe(9);
      expect(at.toJSDate().getTime(), e.summary).toBeGreaterThanOrEqual(today);
    }
    if (start.toJSDate().getTime() < Date.parse(NOW))
      expect(e.component.getAllSubcomponents('valarm'), e.summary).toEqual([]);
  }
  expect(alarms).toBeGreaterThan(10);
}

describe('deadlines for the student cycle', () => {
  it('defaults the cycle to the one whose deadlines are mostly ahead, and lets the student choose', async () => {
    const r = await as(gw, alice).get<{ data: Record<string, unknown> }>('/get-deadline-settings');
    expect(r.body.data).toEqual({
      enteringYear: 2027,
      enteringYearChosen: false,
      cycle: '2026-27',
      reminderDays: [30, 14, 7, 1],
    });
    const bad = await as(gw, alice).post('/update-deadline-settings', { enteringYear: 2019 });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('The entering year must be this year or one of the next four.');
  });

  it('gives each grid college a labelled projected deadline ahead, keeping the spec fields', async () => {
    const body = await deadlines();
    expect(body.success).toBe(true);
    expect(body.message).toBe('Deadlines found');
    for (const name of names) {
      const ahead = body.deadlines.filter(
        (d) => d.collegeName === name && d.kind === 'application' && d.deadlineDate! >= TODAY,
      );
      expect(ahead.length, name).toBeGreaterThan(0);
      for (const d of ahead) {
        expect(d.projected).toBe(true);
        expect(d.label).toMatch(
          /^Expected [A-Z][a-z]+ \d{1,2}, 2027 \(last cycle's date; confirm on the college's site\)$/,
        );
        expect(d.sourceUrl).toBe('https://content.commonapp.org/Files/ReqGrid.pdf');
      }
    }
    const harvard = body.deadlines.find(
      (d) => d.collegeName === 'Harvard University' && d.deadlineType === 'Regular Decision',
    );
    expect(harvard).toMatchObject({
      deadlineDate: '2027-01-01',
      projected: true,
      label: "Expected January 1, 2027 (last cycle's date; confirm on the college's site)",
    });
    // Nothing from before the cycle, but the student's own note.
    const early = body.deadlines.filter((d) => (d.deadlineDate ?? d.deadline)! < CYCLE_START);
    expect(early).toEqual([expect.objectContaining({ title: 'Old SAT date', deadline: '2025-05-03' })]);
  });

  it('shows the projected next deadline on the overview and the labelled dates on the checklist', async () => {
    const season = await as(gw, alice).get<{
      colleges: Array<{ collegeName: string; nextDate: (Item & { date: string; type: string }) | null }>;
    }>('/get-season');
    for (const name of names) {
      const next = season.body.colleges.find((c) => c.collegeName === name)?.nextDate;
      expect((next?.date ?? '') >= TODAY, name).toBe(true);
      expect(next?.label, name).toMatch(/^Expected .* \(last cycle's date; confirm on the college's site\)$/);
    }
    expect(season.body.colleges.find((c) => c.collegeName === 'Harvard University')?.nextDate).toMatchObject({
      type: 'Regular Decision',
      date: '2027-01-01',
      projected: true,
    });
    const cl = await as(gw, alice).get<{ deadlines: Array<{ type: string; date: string; label: string }> }>(
      '/get-college-checklist',
      { collegeName: 'Harvard University' },
    );
    expect(cl.body.deadlines).toEqual([
      {
        type: 'Restrictive Early Action',
        date: '2026-11-01',
        projected: true,
        label: "Expected November 1, 2026 (last cycle's date; confirm on the college's site)",
        kind: 'application',
      },
      {
        type: 'Regular Decision',
        date: '2027-01-01',
        projected: true,
        label: "Expected January 1, 2027 (last cycle's date; confirm on the college's site)",
        kind: 'application',
      },
    ]);
    const recs = await as(gw, alice).get<{ askBy: { deadlineDate: string } | null }>('/get-recommenders', {
      collegeName: 'Harvard University',
    });
    expect(recs.body.askBy?.deadlineDate).toBe('2027-01-01');
    // Each of the six checklists holds a labelled projected deadline ahead.
    for (const name of names) {
      const list = await as(gw, alice).get<{
        deadlines: Array<{ date: string | null; projected?: boolean; label: string }>;
      }>('/get-college-checklist', { collegeName: name });
      const ahead = list.body.deadlines.filter((d) => d.projected && (d.date ?? '') >= TODAY);
      expect(ahead.length, name).toBeGreaterThan(0);
      for (const d of ahead)
        expect(d.label, name).toMatch(/^Expected .* \(last cycle's date; confirm on the college's site\)$/);
    }
  });

  it('writes a file both parsers read, due at 11:59 pm in the right zone, never floating', async () => {
    const text = await ics();
    checkCalendar(text);
    // Each of the six has a projected deadline ahead in the file, marked as expected.
    const ahead = events(text).filter((e) => e.start.getTime() >= Date.parse(NOW));
    for (const name of names)
      expect(
        ahead.some((e) => summaryOf(e).startsWith(`${name}: `) && summaryOf(e).endsWith(' (expected)')),
        name,
      ).toBe(true);
  });

  it('serves the same calendar on the live feed, read the same by both parsers', async () => {
    const r = await as(gw, alice).post<{ data: { path: string } }>('/create-calendar-feed', {});
    expect(r.status).toBe(200);
    feedPath = r.body.data.path;
    const text = await feed();
    checkCalendar(text);
    const moments = (t: string) =>
      events(t)
        .map((e) => `${summaryOf(e)} @ ${e.start.toISOString()}`)
        .sort();
    expect(moments(text)).toEqual(moments(await ics()));
  });

  it('drops Early Decision II from the file once Regular Decision is chosen', async () => {
    const cmc = 'Claremont McKenna College';
    const before = events(await ics()).map(summaryOf);
    expect(before).toContain(`${cmc}: Early Decision II (expected)`);
    const r = await as(gw, alice).post('/update-application', { collegeName: cmc, plan: 'RD' });
    expect(r.status).toBe(200);
    const after = events(await ics()).map(summaryOf);
    expect(after).not.toContain(`${cmc}: Early Decision II (expected)`);
    expect(after).toContain(`${cmc}: Regular Decision (expected)`);
    expect(
      events(await feed())
        .map(summaryOf)
        .sort(),
    ).toEqual([...after].sort());
    // The card still lists every plan.
    const season = await as(gw, alice).get<{
      colleges: Array<{ collegeName: string; deadlines: Array<{ type: string }> }>;
    }>('/get-season');
    expect(season.body.colleges.find((c) => c.collegeName === cmc)?.deadlines.map((d) => d.type)).toContain(
      'Early Decision II',
    );
  });

  it('removes a submitted application deadline from Coming up, keeping the aid dates', async () => {
    const harvardApps = async () =>
      (await deadlines()).deadlines.filter(
        (d) => d.collegeName === 'Harvard University' && d.kind === 'application' && d.deadlineDate! >= TODAY,
      );
    expect(await harvardApps()).toHaveLength(1);
    const r = await as(gw, alice).post('/update-application', {
      collegeName: 'Harvard University',
      plan: 'RD',
      status: 'submitted',
      submittedOn: '2026-11-20',
    });
    expect(r.status).toBe(200);
    expect(await harvardApps()).toEqual([]);
    const aid = (
      await as(gw, alice).get<{ aidDates: Array<{ title: string; date: string; details: string }> }>(
        '/get-deadlines',
      )
    ).body.aidDates;
    // The CSS Profile opening names the colleges on the list known to ask for it.
    expect(aid.find((a) => a.title.startsWith('CSS Profile opens'))?.details).toMatch(
      /^Asked for by Harvard University, Yale University on your list/,
    );
    expect(aid.map((a) => a.title)).toEqual([
      'FAFSA opens (2027–28)',
      'CSS Profile opens (2027–28)',
      'College reply deadline (May 1)',
      'FAFSA federal deadline (2027–28)',
    ]);
    expect(events(await ics()).map(summaryOf)).not.toContain(
      'Harvard University: Regular Decision (expected)',
    );
  });
  it("rings the file's reminders on the student's own lead days, at 9 am local", async () => {
    const r = await as(gw, alice).post('/update-deadline-settings', { reminderDays: [21, 3] });
    expect(r.status).toBe(200);
    const text = await ics();
    expect(await feed()).toBe(text);
    const comp = new ICAL.Component(ICAL.parse(text));
    for (const tz of comp.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(tz);
    const manoa = comp
      .getAllSubcomponents('vevent')
      .map((v) => new ICAL.Event(v))
      .find((e) => e.summary === `${MANOA}: Regular Decision`)!;
    const rings = manoa.component.getAllSubcomponents('valarm').map((a) => {
      const at = manoa.startDate.clone();
      at.addDuration(a.getFirstPropertyValue('trigger') as ICAL.Duration);
      return `${at.toString()} ${String(a.getFirstPropertyValue('description'))}`;
    });
    expect(rings).toEqual([
      `2026-12-15T09:00:00 ${MANOA}: Regular Decision: in 21 days`,
      `2027-01-02T09:00:00 ${MANOA}: Regular Decision: in 3 days`,
    ]);
    await as(gw, alice).post('/update-deadline-settings', { reminderDays: [30, 14, 7, 1] });
  });
  it("labels a date placed by the grid's yearly rule as expected, everywhere it shows", async () => {
    // UCLA's grid entry has no dated plan, only yearly rules (filing opens Oct 1, closes Dec 1).
    const grid = await CommonAppGrid.shipped();
    const entry = grid.entry(110662)!;
    const ucla = buildCollege({
      name: entry.name,
      scorecardId: 110662,
      demographics: { schoolState: 'CA', schoolCity: 'Los Angeles' },
      info: { deadlines: gridFacts(entry, grid.source, new Date(NOW))!.deadlines },
      sources: { 'info.deadlines': { ...grid.source, gatheredAt: NOW } },
    });
    await seedColleges(gw.db, [ucla]);
    const bea = await createVerifiedUser({ name: 'Bea' });
    expect((await as(gw, bea).post('/add-user-college', { collegeName: ucla.name })).status).toBe(200);
    const expected = "Expected December 1, 2026 (the college's yearly date; confirm on the college's site)";
    const listed = (await as(gw, bea).get<{ deadlines: Item[] }>('/get-deadlines')).body.deadlines.filter(
      (d) => d.collegeName === ucla.name && d.deadlineDate === '2026-12-01',
    );
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ projected: true, label: expected });
    const cl = await as(gw, bea).get<{ deadlines: Array<{ date: string | null; label: string }> }>(
      '/get-college-checklist',
      { collegeName: ucla.name },
    );
    expect(cl.body.deadlines.find((d) => d.date === '2026-12-01')?.label).toBe(expected);
    const file = await gw.api<string>('GET', '/api/download-deadlines.ics', { token: bea.idToken });
    expect(
      events(file.body)
        .map(summaryOf)
        .filter((t) => t.startsWith(ucla.name)),
    ).toContain(`${ucla.name}: ${listed[0]!.deadlineType} (expected)`);
  });
});
