// Issue 20 item 5: admins reading students' notes leave a trail, shown to admins: who read whose notes,
// when. Students cannot read the trail.
import { RoleRepository } from '@ct/auth/repositories/roles';
import { createVerifiedUser, startTestGateway, type TestGateway, type TestUser } from '@ct/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let gw: TestGateway;
let ada: TestUser;
let sam: TestUser;

beforeAll(async () => {
  gw = await startTestGateway({ queue: 'memory', env: { RUN_WORKER: 'false' } });
  [ada, sam] = await Promise.all([
    createVerifiedUser({ name: 'Ada Admin' }),
    createVerifiedUser({ name: 'Sam Student' }),
  ]);
  await new RoleRepository(gw.db).grantRole(ada.uid, 'admin', ada.email, 'test');
  for (const title of ['Plan', 'Visit'])
    expect(
      (await gw.api('POST', '/api/add-note', { token: sam.idToken, body: { note: { title, content: 'x' } } }))
        .status,
    ).toBe(200);
});
afterAll(() => gw?.close());

type Reads = { total: number; noteReads: Array<Record<string, unknown>> };

describe("admins' reads of students' notes", () => {
  it('are recorded and listed for admins: who read (uid and e-mail) whose notes, how many, when', async () => {
    const before = await gw.api<Reads>('GET', '/api/admin/note-reads', { token: ada.idToken });
    expect(before.status).toBe(200);
    expect(before.body.noteReads.filter((r) => r.studentId === sam.uid)).toEqual([]);

    const read = await gw.api<{ profileNotes: Array<{ userId: string }> }>(
      'GET',
      '/api/admin/profile-notes',
      {
        token: ada.idToken,
        query: { filterUserId: sam.uid },
      },
    );
    expect(read.status).toBe(200);
    expect(read.body.profileNotes.map((p) => p.userId)).toEqual([sam.uid]);

    const after = await gw.api<Reads>('GET', '/api/admin/note-reads', { token: ada.idToken });
    expect(after.status).toBe(200);
    const mine = after.body.noteReads.filter((r) => r.studentId === sam.uid);
    expect(mine).toEqual([
      { readerId: ada.uid, readerEmail: ada.email, studentId: sam.uid, notes: 2, readAt: expect.any(String) },
    ]);
    expect(Date.parse(String(mine[0]!.readAt))).toBeGreaterThan(Date.now() - 600_000);
  });

  it('are not for students: the trail is a 403, and reading it leaves no read of anyone', async () => {
    const r = await gw.api('GET', '/api/admin/note-reads', { token: sam.idToken });
    expect(r.status).toBe(403);
    const rows = await gw.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM user_data.note_read WHERE reader_uid = $1',
      [sam.uid],
    );
    expect(rows.rows[0]!.n).toBe(0);
  });
});
