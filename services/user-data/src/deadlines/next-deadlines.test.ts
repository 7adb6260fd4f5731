import ICAL from 'ical.js';
import ical, { type VEvent } from 'node-ical';
import { describe, expect, it } from 'vitest';
import { deadlinesToIcs, icsText } from '../ics.ts';
import {
  applies,
  cycleOf,
  defaultEnteringYear,
  dueMoment,
  factsOf,
  resolveCollegeDeadlines,
} from './next-deadlines.ts';
import type { StudentDeadline } from './types.ts';
import { wallTimeToUtc, ZONES, zoneOf } from './zones.ts';

const cycle = cycleOf(2027);

describe('the cycle', () => {
  it('defaults to the cycle whose deadlines are mostly ahead', () => {
    expect(defaultEnteringYear('2026-11-27')).toBe(2027);
    expect(defaultEnteringYear('2027-03-01')).toBe(2027);
    expect(defaultEnteringYear('2027-07-15')).toBe(2028);
    expect(cycle).toEqual({ enteringYear: 2027, from: '2026-08-01', to: '2027-07-31', label: '2026-27' });
  });
});

describe('resolveCollegeDeadlines', () => {
  it("projects last cycle's dates one year on, labelled, and lets a published date win", () => {
    const r = resolveCollegeDeadlines(
      [
        { type: 'Restrictive Early Action', date: '2025-11-01' },
        { type: 'Regular Decision', date: '2026-01-01' },
        { type: 'Early Decision', date: '2025-11-15' },
        { type: 'Early Decision', date: '2026-11-15' },
        { type: 'Early Action', date: '2024-11-01' },
        { type: 'Rolling admission', date: null },
      ],
      cycle,
    );
    expect(r.map((d) => [d.type, d.date, d.projected, d.label])).toEqual([
      [
        'Restrictive Early Action',
        '2026-11-01',
        true,
        "Expected November 1, 2026 (last cycle's date; confirm on the college's site)",
      ],
      ['Early Decision', '2026-11-15', false, 'November 15, 2026'],
      [
        'Regular Decision',
        '2027-01-01',
        true,
        "Expected January 1, 2027 (last cycle's date; confirm on the college's site)",
      ],
      ['Rolling admission', null, false, 'No date (rolling admission)'],
    ]);
  });

  it("labels a date placed by the college's yearly rule as expected, and keeps a published one plain", () => {
    // The college's record: a yearly-rule date carries a note (by the contract, not published this cycle).
    const facts = factsOf({
      scorecardId: 166027,
      demographics: { schoolState: 'MA', schoolCity: 'Cambridge' },
      sources: {},
      info: {
        deadlines: [
          { type: 'Priority filing deadline', date: '2027-02-01', note: 'from a yearly rule' },
          { type: 'Regular Decision', date: '2027-01-01' },
        ],
      },
    } as unknown as Parameters<typeof factsOf>[0]);
    expect(facts.cssProfile).toBe(true);
    const r = resolveCollegeDeadlines(
      [
        { type: 'Priority filing deadline', date: '2027-02-01' },
        { type: 'Regular Decision', date: '2027-01-01' },
      ],
      cycle,
      facts.estimated,
    );
    expect(r.map((d) => [d.type, d.projected, d.label])).toEqual([
      ['Regular Decision', false, 'January 1, 2027'],
      [
        'Priority filing deadline',
        true,
        "Expected February 1, 2027 (the college's yearly date; confirm on the college's site)",
      ],
    ]);
    // Without the college's record (not read), the date is shown as it is.
    expect(
      resolveCollegeDeadlines([{ type: 'Priority filing deadline', date: '2027-02-01' }], cycle)[0]
        ?.projected,
    ).toBe(false);
    expect(factsOf(null, 999_999).cssProfile).toBe(false);
  });

  it('moves February 29 to February 28', () => {
    expect(
      resolveCollegeDeadlines([{ type: 'Regular Decision', date: '2028-02-29' }], cycleOf(2029))[0]?.date,
    ).toBe('2029-02-28');
  });

  it('tells the kinds of date apart', () => {
    const kinds = resolveCollegeDeadlines(
      [
        { type: 'CSS Profile priority deadline', date: '2026-11-15' },
        { type: 'Merit scholarship deadline', date: '2026-12-01' },
        { type: 'Interview request deadline', date: '2026-12-10' },
        { type: 'Early Decision II', date: '2027-01-05' },
      ],
      cycle,
    ).map((d) => [d.type, d.kind, d.plan]);
    expect(kinds).toEqual([
      ['CSS Profile priority deadline', 'css-profile', null],
      ['Merit scholarship deadline', 'priority-merit', null],
      ['Interview request deadline', 'interview', null],
      ['Early Decision II', 'application', 'ED'],
    ]);
  });
});

describe('applies', () => {
  const ed2 = { kind: 'application' as const, plan: 'ED' as const };
  const css = { kind: 'css-profile' as const, plan: null };
  it('prunes the other plans, and every application deadline once submitted; aid dates stay', () => {
    expect(applies(ed2, { plan: null, status: 'researching' })).toBe(true);
    expect(applies(ed2, { plan: 'RD', status: 'applying' })).toBe(false);
    expect(applies(ed2, { plan: 'ED', status: 'applying' })).toBe(true);
    expect(applies(ed2, { plan: 'ED', status: 'submitted' })).toBe(false);
    expect(applies(css, { plan: 'RD', status: 'submitted' })).toBe(true);
  });
});

describe('due moments', () => {
  it('is 11:59 pm in the zone, across daylight saving time', () => {
    expect(wallTimeToUtc(ZONES.eastern, '2027-01-01', 23, 59)).toBe('2027-01-02T04:59:00.000Z');
    expect(wallTimeToUtc(ZONES.eastern, '2026-11-01', 23, 59)).toBe('2026-11-02T04:59:00.000Z');
    expect(wallTimeToUtc(ZONES.eastern, '2026-10-15', 23, 59)).toBe('2026-10-16T03:59:00.000Z');
    expect(wallTimeToUtc(ZONES.hawaii, '2027-01-05', 23, 59)).toBe('2027-01-06T09:59:00.000Z');
    expect(wallTimeToUtc(ZONES.arizona, '2027-07-01', 23, 59)).toBe('2027-07-02T06:59:00.000Z');
  });

  it("uses the student's zone for the Common App, else the college's, from its state and city", () => {
    const ca = zoneOf('CA');
    const harvard = { state: 'MA', city: 'Cambridge', commonApp: true };
    expect(dueMoment('2027-01-01', harvard, ca)).toEqual({
      at: '2027-01-02T07:59:00.000Z',
      zone: 'America/Los_Angeles',
      zoneName: 'Pacific Time',
      basis: 'student',
    });
    const manoa = { state: 'HI', city: 'Honolulu', commonApp: false };
    expect(dueMoment('2027-01-05', manoa, ca).at).toBe('2027-01-06T09:59:00.000Z');
    expect(zoneOf('TN', 'Knoxville')?.tzid).toBe('America/New_York');
    expect(zoneOf('TN', 'Nashville')?.tzid).toBe('America/Chicago');
    expect(zoneOf('TX', 'El Paso')?.tzid).toBe('America/Denver');
    expect(dueMoment('2027-01-05', { ...manoa, state: null }, null).basis).toBe('assumed');
  });
});

describe('control characters in the calendar file', () => {
  const nasty = 'Essay\rBEGIN:VEVENT\rSUMMARY:Injected\vEND:VEVENT\f;,\\ done\u0000\u007f\u2028x';
  const item = (over: Partial<StudentDeadline>): StudentDeadline => ({
    origin: 'college',
    collegeName: 'Colby College',
    collegeKey: 'colby college',
    type: 'Regular Decision',
    kind: 'application',
    plan: 'RD',
    date: '2027-01-15',
    projected: false,
    projectedFrom: null,
    label: 'January 15, 2027',
    sourceUrl: 'https://www.colby.edu/admission',
    due: {
      at: '2027-01-16T04:59:00.000Z',
      zone: 'America/New_York',
      zoneName: 'Eastern Time',
      basis: 'college',
    },
    details: null,
    noteId: null,
    ...over,
  });
  const text = deadlinesToIcs(
    {
      items: [
        item({
          origin: 'note',
          collegeName: null,
          collegeKey: null,
          type: nasty,
          kind: 'note',
          due: null,
          details: nasty,
          noteId: 'n1',
          date: '2026-12-01',
        }),
        item({ type: nasty }),
      ],
      cycle,
      today: '2026-11-27',
      reminderDays: [30, 14, 7, 1],
    },
    new Date('2026-11-27T17:00:00Z'),
  );

  it('escapes or strips every control character', () => {
    expect(icsText('a;b,c\\d\re\nf\vg\fh\u0001')).toBe('a\\;b\\,c\\\\d\\ne\\nf\\ng\\nh');
    // Only CRLF line ends; no other control character anywhere in the file.
    // eslint-disable-next-line no-control-regex -- control characters are what it looks for
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\u0000-\u0008\u000a-\u001f\u007f]/);
    // A reader that splits on any CR or LF sees no injected line.
    const lines = text.split(/\r\n|\r|\n/);
    expect(lines.filter((l) => l === 'BEGIN:VEVENT')).toHaveLength(2);
    expect(lines.filter((l) => l.startsWith('SUMMARY:'))).toHaveLength(2);
  });

  it('keeps the summary whole in node-ical and ical.js', () => {
    const evs = Object.values(ical.sync.parseICS(text)).filter((c): c is VEvent => c?.type === 'VEVENT');
    const expected = 'Essay BEGIN:VEVENT SUMMARY:Injected END:VEVENT ;,\\ done x';
    expect(evs.map((e) => String(e.summary))).toEqual([expected, `Colby College: ${expected}`]);
    const comp = new ICAL.Component(ICAL.parse(text));
    const js = comp.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));
    expect(js.map((e) => e.summary)).toEqual([expected, `Colby College: ${expected}`]);
    // Alarm descriptions keep their ; , \ escaped too.
    const alarm = comp.getAllSubcomponents('vevent')[1]!.getFirstSubcomponent('valarm')!;
    expect(alarm.getFirstPropertyValue('description')).toBe(`Colby College: ${expected}: in 30 days`);
  });
});
