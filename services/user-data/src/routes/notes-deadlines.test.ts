import type { Note } from '@ct/contracts';
import { createVerifiedUser, gatewaySuite, type TestUser } from '@ct/testkit';
import { beforeAll, describe, expect, it } from 'vitest';
import { as, collegeWith, twoUsers } from './test-helpers.ts';

let alice: TestUser;
let bob: TestUser;

const { gw } = gatewaySuite({ queue: 'memory', colleges: [collegeWith('Example State University')] });
beforeAll(async () => {
  [alice, bob] = await twoUsers();
});

type NoteReply = { success: boolean; message: string; data: Note };
const notesOf = async (user: TestUser) =>
  (await as(gw, user).get<{ notes: Note[] }>('/get-notes')).body.notes;
const note = (over: Record<string, unknown> = {}) => ({
  title: 'Visit day',
  content: 'Campus tour at 10',
  deadline: null,
  createdAt: new Date().toISOString(),
  updatedAt: new Date().toISOString(),
  ...over,
});

describe('notes', () => {
  it('starts with no notes', async () => {
    const r = await as(gw, alice).get('/get-notes', { userId: alice.uid });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true, message: 'Notes Found For User', notes: [], data: [] });
  });

  it('adds a note with a stable id, timestamps and an optional deadline', async () => {
    const r = await as(gw, alice).post<NoteReply>('/add-note', {
      userId: alice.uid,
      note: note({ title: '  Visit day ', deadline: '2026-10-03' }),
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      success: true,
      message: 'Note successfully added to your profile!',
      data: { title: 'Visit day', content: 'Campus tour at 10', deadline: '2026-10-03' },
    });
    expect(r.body.data.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(r.body.data.createdAt)).not.toBeNaN();
    expect(r.body.data.updatedAt).toBe(r.body.data.createdAt);
    const empty = await as(gw, alice).post<NoteReply>('/add-note', {
      note: note({ title: 'No date', deadline: '' }),
    });
    expect(empty.body.data.deadline).toBeNull();
    const list = await notesOf(alice);
    expect(list.map((n) => n.title)).toEqual(['Visit day', 'No date']);
    expect(list[0]?.id).toBe(r.body.data.id);
  });

  it.each([
    ['an empty title', { title: '   ' }],
    ['empty content', { content: '' }],
    ['blank content', { content: ' \n ' }],
  ])('refuses %s with the spec message', async (_label, over) => {
    const r = await as(gw, alice).post('/add-note', { note: note({ title: 'Refused', ...over }) });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      success: false,
      message: 'Failed to create note: Title and Content must be filled out',
      code: 'VALIDATION_ERROR',
    });
  });

  it('refuses a note with no title field at all with the spec message', async () => {
    const r = await as(gw, alice).post('/add-note', { note: { content: 'x' } });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe('Failed to create note: Title and Content must be filled out');
  });

  it('takes 2,000 characters and refuses 2,001', async () => {
    const ok = await as(gw, alice).post('/add-note', {
      note: note({ title: 'Long', content: 'a'.repeat(2000) }),
    });
    expect(ok.status).toBe(200);
    const tooLong = await as(gw, alice).post('/add-note', {
      note: note({ title: 'Too long', content: 'a'.repeat(2001) }),
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.message).toBe('Note content cannot exceed 2000 characters');
    expect((await notesOf(alice)).some((n) => n.title === 'Too long')).toBe(false);
  });

  it('refuses dates that are not real days', async () => {
    for (const deadline of ['2026-02-30', '2026-13-01', 'tomorrow', 20261001]) {
      const r = await as(gw, alice).post('/add-note', {
        note: note({ title: `Date ${deadline}`, deadline }),
      });
      expect(r.status).toBe(400);
      expect(r.body.message).toBe('The note date must be a real date (YYYY-MM-DD) or empty');
    }
  });

  it('refuses a second note with the same title', async () => {
    const r = await as(gw, alice).post('/add-note', { note: note({ title: 'Visit day' }) });
    expect(r.status).toBe(409);
    expect(r.body.message).toBe('You already have a note titled "Visit day". Choose another title.');
  });

  it('updates a note by id: content and deadline, never the title', async () => {
    const [first] = await notesOf(alice);
    const r = await as(gw, alice).post<NoteReply>('/update-note', {
      userId: alice.uid,
      noteId: first!.id,
      noteContent: 'Campus tour moved to 11',
      deadline: '2026-10-04',
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      success: true,
      message: 'Note successfully updated!',
      data: { id: first!.id, title: 'Visit day', content: 'Campus tour moved to 11', deadline: '2026-10-04' },
    });
    expect(r.body.data.createdAt).toBe(first!.createdAt);
    expect(Date.parse(r.body.data.updatedAt)).toBeGreaterThanOrEqual(Date.parse(first!.updatedAt));
  });

  it("updates by title as the spec's call does, leaving the deadline as it is", async () => {
    const r = await as(gw, alice).post<NoteReply>('/update-note', {
      userId: alice.uid,
      noteTitle: 'Visit day',
      noteContent: 'Bring the transcript',
    });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ content: 'Bring the transcript', deadline: '2026-10-04' });
    const cleared = await as(gw, alice).post<NoteReply>('/update-note', {
      noteTitle: 'Visit day',
      noteContent: 'Bring the transcript',
      deadline: '',
    });
    expect(cleared.body.data.deadline).toBeNull();
  });

  it('refuses bad updates with the spec messages and changes nothing', async () => {
    const before = await notesOf(alice);
    const empty = await as(gw, alice).post('/update-note', { noteTitle: 'Visit day', noteContent: '  ' });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('Failed to update note: Title and Content must be filled out');
    const noContent = await as(gw, alice).post('/update-note', { noteTitle: 'Visit day' });
    expect(noContent.status).toBe(400);
    expect(noContent.body.message).toBe('Failed to update note: Title and Content must be filled out');
    const noRef = await as(gw, alice).post('/update-note', { noteContent: 'x' });
    expect(noRef.body.message).toBe('Failed to update note: Title and Content must be filled out');
    const tooLong = await as(gw, alice).post('/update-note', {
      noteTitle: 'Visit day',
      noteContent: 'b'.repeat(2001),
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.message).toBe('Note content cannot exceed 2000 characters');
    const missing = await as(gw, alice).post('/update-note', { noteTitle: 'Nope', noteContent: 'x' });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Note not found');
    const badId = await as(gw, alice).post('/update-note', { noteId: 'not-a-uuid', noteContent: 'x' });
    expect(badId.status).toBe(404);
    expect(await notesOf(alice)).toEqual(before);
  });

  it('removes a note by id or by title', async () => {
    const list = await notesOf(alice);
    const byId = await as(gw, alice).post<{ data: Note[]; message: string }>('/remove-note', {
      userId: alice.uid,
      noteId: list.find((n) => n.title === 'Long')!.id,
    });
    expect(byId.status).toBe(200);
    expect(byId.body).toMatchObject({ success: true, message: 'Note deleted' });
    expect(byId.body.data.map((n) => n.title)).toEqual(['Visit day', 'No date']);
    const byTitle = await as(gw, alice).post<{ data: Note[] }>('/remove-note', { noteTitle: 'No date' });
    expect(byTitle.body.data.map((n) => n.title)).toEqual(['Visit day']);
    const again = await as(gw, alice).post('/remove-note', { noteTitle: 'No date' });
    expect(again.status).toBe(404);
    expect(again.body.message).toBe('Note not found');
    const noRef = await as(gw, alice).post('/remove-note', {});
    expect(noRef.status).toBe(400);
  });

  it('keeps at most 30 notes, even when 31 arrive at once', async () => {
    const carol = await createVerifiedUser({ name: 'Carol' });
    const results = await Promise.all(
      Array.from({ length: 31 }, (_, i) =>
        as(gw, carol).post('/add-note', { note: note({ title: `Note ${i}` }) }),
      ),
    );
    const refused = results.filter((r) => r.status !== 200);
    expect(refused).toHaveLength(1);
    expect(refused[0]?.status).toBe(409);
    expect(refused[0]?.body.message).toBe('You can have at most 30 notes. Delete a note to add a new one.');
    expect(await notesOf(carol)).toHaveLength(30);
    const thirtyFirst = await as(gw, carol).post('/add-note', { note: note({ title: 'One more' }) });
    expect(thirtyFirst.status).toBe(409);
    expect(thirtyFirst.body.message).toBe('You can have at most 30 notes. Delete a note to add a new one.');
  });

  it("never shows one student's notes to another", async () => {
    expect(await notesOf(bob)).toEqual([]);
  });
});

describe('get-deadlines', () => {
  it("lists the student's college deadlines and notes with a deadline, soonest first", async () => {
    const dave = await createVerifiedUser({ name: 'Dave' });
    const empty = await as(gw, dave).get('/get-deadlines', { userId: dave.uid });
    expect(empty.body).toEqual({ success: true, message: 'Deadlines found', deadlines: [] });
    await as(gw, dave).post('/add-user-college', { collegeName: 'Example State University' });
    const n = await as(gw, dave).post<NoteReply>('/add-note', {
      note: note({ title: 'Scholarship essay', content: 'Rotary club', deadline: '2026-12-01' }),
    });
    await as(gw, dave).post('/add-note', { note: note({ title: 'Undated', content: 'No date here' }) });
    const r = await as(gw, dave).get('/get-deadlines');
    expect(r.status).toBe(200);
    expect(r.body.deadlines).toMatchObject([
      { collegeName: 'Example State University', deadlineType: 'Early Action', deadlineDate: '2026-11-01' },
      { noteId: n.body.data.id, title: 'Scholarship essay', content: 'Rotary club', deadline: '2026-12-01' },
      {
        collegeName: 'Example State University',
        deadlineType: 'Regular Decision',
        deadlineDate: '2027-01-15',
      },
    ]);
  });
});
