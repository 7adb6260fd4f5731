import ical, { type VEvent } from 'node-ical';
import { describe, expect, it } from 'vitest';
import { googleCalendarUrl, toCalendarDeadline } from './deadlines';
import { deadlinesIcs } from './ics';

const items = [
  { collegeName: 'Example State University', deadlineType: 'Early Action', deadlineDate: '2026-11-01' },
  { noteId: 'n1', title: 'Scholarship essay', content: 'Rotary club', deadline: '2026-12-01' },
  { noteId: 'n2', title: '  ', content: 'Untitled', deadline: '2026-12-02' },
].map(toCalendarDeadline);

describe('deadlines.ics', () => {
  it('parses with an independent parser: one-hour events, summary = college name, title or "Deadline"', async () => {
    const text = await deadlinesIcs(items);
    expect(text).toMatch(/^BEGIN:VCALENDAR\r\n/);
    const events = Object.values(ical.sync.parseICS(text)).filter((c): c is VEvent => c?.type === 'VEVENT');
    expect(events.map((e) => String(e.summary))).toEqual([
      'Example State University',
      'Scholarship essay',
      'Deadline',
    ]);
    for (const e of events) expect(e.end!.getTime() - e.start.getTime()).toBe(3_600_000);
    const first = events[0]!;
    expect([first.start.getFullYear(), first.start.getMonth() + 1, first.start.getDate()]).toEqual([
      2026, 11, 1,
    ]);
    expect(String(first.description)).toBe('Early Action');
  });

  it('builds a Google Calendar link for the same one-hour event', () => {
    const url = new URL(googleCalendarUrl(items[0]!));
    expect(url.origin).toBe('https://calendar.google.com');
    expect(url.searchParams.get('action')).toBe('TEMPLATE');
    expect(url.searchParams.get('text')).toBe('Example State University');
    expect(url.searchParams.get('dates')).toBe('20261101T090000/20261101T100000');
    expect(url.searchParams.get('details')).toBe('Early Action');
  });
});
