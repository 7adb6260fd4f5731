// Issue 35 item 5: note titles were only trimmed, so a title with bare CRs reached every calendar file
// (node-ical lost the event's summary; a CR-splitting reader saw injected events). One-line text that can
// become an event's title is refused at the door when it holds a control character; a note's content
// keeps its line breaks and tabs.
import { INPUT_MSG, type Note } from '@ct/contracts';
import { gatewaySuite, type TestUser } from '@ct/testkit';
import ical, { type VEvent } from 'node-ical';
import { beforeAll, describe, expect, it } from 'vitest';
import { as, collegeWith, twoUsers } from './test-helpers.ts';

let alice: TestUser;

const { gw } = gatewaySuite({ queue: 'memory', colleges: [collegeWith('Control Character College')] });
beforeAll(async () => {
  [alice] = await twoUsers();
});

const notesOf = async () => (await as(gw, alice).get<{ notes: Note[] }>('/get-notes')).body.notes;
const addNote = (title: string, content = 'Details', deadline: string | null = '2026-12-01') =>
  as(gw, alice).post<{ success: boolean; message: string; code?: string; data: Note }>('/add-note', {
    note: { title, content, deadline },
  });
const events = (text: string) =>
  Object.values(ical.sync.parseICS(text)).filter((c): c is VEvent => c?.type === 'VEVENT');

/** Every kind of control character the issue names, and the Unicode line breaks readers also split on. */
const CONTROLS: Array<[string, string]> = [
  ['a bare CR', 'Essay\rBEGIN:VEVENT\rSUMMARY:Injected'],
  ['CRLF', 'Essay\r\nSUMMARY:Injected'],
  ['LF', 'Essay\nsecond line'],
  ['a vertical tab', 'Essay\u000bdue'],
  ['a form feed', 'Essay\u000cdue'],
  ['a tab', 'Essay\tdue'],
  ['an escape', 'Essay \u001b[31mred'],
  ['DEL', 'Essay\u007f'],
  ['a C1 next-line', 'Essay\u0085due'],
  ['a line separator', 'Essay\u2028due'],
  ['a paragraph separator', 'Essay\u2029due'],
];

describe('control characters at the door', () => {
  it.each(CONTROLS)('refuses a note title with %s, clearly, and stores nothing', async (_what, title) => {
    const before = await notesOf();
    const r = await addNote(title);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      success: false,
      message: INPUT_MSG.noteTitleOneLine,
      code: 'VALIDATION_ERROR',
    });
    expect(await notesOf()).toEqual(before);
  });

  it('still says a too-long title is too long', async () => {
    const r = await addNote('x'.repeat(201));
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/200 characters/);
  });

  it("keeps a note's line breaks and tabs in its content, and refuses other control characters", async () => {
    const content = 'Line one\nLine two\r\n\tindented';
    const ok = await addNote('Scholarship essay', content);
    expect(ok.status).toBe(200);
    expect(ok.body.data.content).toBe(content);
    for (const bad of ['Due\u000bsoon', 'Due\u000csoon', 'Red \u001b[31m', 'Bell\u0007']) {
      const r = await addNote('Another note', bad);
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect(r.body).toMatchObject({ success: false, message: INPUT_MSG.noteContentControl });
      const u = await as(gw, alice).post('/update-note', { noteId: ok.body.data.id, noteContent: bad });
      expect(u.status, JSON.stringify(bad)).toBe(400);
      expect(u.body).toMatchObject({ message: INPUT_MSG.noteContentControl });
    }
    expect((await notesOf()).map((n) => [n.title, n.content])).toEqual([['Scholarship essay', content]]);
  });

  it('refuses a college name with a control character, wherever a student types one', async () => {
    const name = 'Control Character College\rBEGIN:VEVENT';
    const add = await as(gw, alice).post('/add-user-college', { collegeName: name });
    expect(add.status).toBe(400);
    expect(add.body).toMatchObject({ success: false, message: INPUT_MSG.collegeNameOneLine });
    const search = await as(gw, alice).get('/search-college', { name });
    expect(search.status).toBe(400);
    expect(search.body).toMatchObject({ message: INPUT_MSG.collegeNameOneLine });
    expect((await as(gw, alice).get<{ colleges: unknown[] }>('/get-user-colleges')).body.colleges).toEqual(
      [],
    );
    // The same name on one line is added.
    const ok = await as(gw, alice).post('/add-user-college', { collegeName: 'Control Character College' });
    expect(ok.status).toBe(200);
  });

  it("gives the student a calendar whose events are exactly their notes' and colleges' deadlines", async () => {
    const r = await as(gw, alice).get<string>('/download-deadlines.ics');
    expect(r.status).toBe(200);
    const found = events(r.body);
    // Besides the FAFSA and CSS Profile dates every student with a college gets.
    const summaries = found
      .map((e) => String(e.summary))
      .filter((s) => !/^(FAFSA|CSS Profile|College reply deadline) /.test(s))
      .sort();
    expect(summaries).toEqual(
      [
        'Control Character College: Early Action',
        'Control Character College: Regular Decision',
        'Scholarship essay',
      ].sort(),
    );
    expect(r.body).not.toContain('Injected');
  });
});
