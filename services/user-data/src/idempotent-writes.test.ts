// A write a phone queued offline carries an id (Idempotency-Key): sent twice, it is applied once and the
// second sending gets the first reply; a refused write frees its id; another student's id is their own.
import type { Note } from '@ct/contracts';
import { gatewaySuite, type TestUser } from '@ct/testkit';
import { beforeAll, describe, expect, it } from 'vitest';
import { collegeWith, twoUsers } from './routes/test-helpers.ts';

let alice: TestUser;
let bob: TestUser;
const college = collegeWith('Idempotent State University');

const { gw } = gatewaySuite({ queue: 'memory', colleges: [college] });
beforeAll(async () => {
  [alice, bob] = await twoUsers();
  for (const u of [alice, bob])
    await gw.api('POST', '/api/add-user-college', { token: u.idToken, body: { collegeName: college.name } });
});

const post = (user: TestUser, path: string, body: unknown, key?: string) =>
  gw.api<{ success: boolean; message: string; data?: Note }>('POST', `/api${path}`, {
    token: user.idToken,
    body,
    ...(key ? { headers: { 'idempotency-key': key } } : {}),
  });
const notesOf = async (user: TestUser) =>
  (await gw.api<{ notes: Note[] }>('GET', '/api/get-notes', { token: user.idToken })).body.notes;
const note = (title: string) => ({
  userId: alice.uid,
  note: {
    title,
    content: 'Written offline',
    deadline: null,
    createdAt: '2026-11-27T07:00:00Z',
    updatedAt: '2026-11-27T07:00:00Z',
  },
});

describe('a queued write sent twice', () => {
  it('adds one note, and the second sending gets the first reply', async () => {
    const first = await post(alice, '/add-note', note('Offline idea'), 'write-0001-aaaa');
    const again = await post(alice, '/add-note', note('Offline idea'), 'write-0001-aaaa');
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replay']).toBe('true');
    expect((await notesOf(alice)).filter((n) => n.title === 'Offline idea')).toHaveLength(1);
  });

  it('ticks a checklist item once; a later untick with a new id still applies', async () => {
    const { body } = await gw.api<{ checklist: Record<string, Array<{ text: string }>> }>(
      'GET',
      '/api/get-college-checklist',
      { token: alice.idToken, query: { collegeName: college.name } },
    );
    const [section, items] = Object.entries(body.checklist)[0]!;
    const tick = {
      collegeName: college.name,
      section,
      itemIndex: 0,
      completed: true,
      itemText: items[0]!.text,
    };
    expect((await post(alice, '/update-checklist', tick, 'tick-0001-aaaa')).status).toBe(200);
    await post(alice, '/update-checklist', { ...tick, completed: false }, 'tick-0002-aaaa');
    // The first tick arrives again (its reply was lost): it does not undo the later untick.
    const replay = await post(alice, '/update-checklist', tick, 'tick-0001-aaaa');
    expect(replay.headers['idempotent-replay']).toBe('true');
    const now = await gw.api<{ checklist: Record<string, Array<{ completed: boolean }>> }>(
      'GET',
      '/api/get-college-checklist',
      { token: alice.idToken, query: { collegeName: college.name } },
    );
    expect(now.body.checklist[section]![0]!.completed).toBe(false);
  });

  it('frees the id of a refused write, so the corrected write can use it', async () => {
    const refused = await post(
      alice,
      '/update-note',
      { noteId: '00000000-0000-4000-8000-000000000000', noteContent: 'x' },
      'write-0002-aaaa',
    );
    expect(refused.status).toBe(404);
    const added = await post(alice, '/add-note', note('After a refusal'), 'write-0002-aaaa');
    expect(added.status).toBe(200);
    expect(added.headers['idempotent-replay']).toBeUndefined();
  });

  it("keeps each student's ids apart", async () => {
    await post(alice, '/add-note', note('Shared id, Alice'), 'write-0003-aaaa');
    const b = await post(bob, '/add-note', { ...note('Shared id, Bob'), userId: bob.uid }, 'write-0003-aaaa');
    expect(b.status).toBe(200);
    expect((await notesOf(bob)).map((n) => n.title)).toContain('Shared id, Bob');
  });

  it('refuses a malformed id and changes nothing', async () => {
    const r = await post(alice, '/add-note', note('Bad id'), 'bad key!');
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(
      'The write id (Idempotency-Key) must be 8 to 100 letters, digits, dashes or underscores.',
    );
    expect((await notesOf(alice)).map((n) => n.title)).not.toContain('Bad id');
  });
});
