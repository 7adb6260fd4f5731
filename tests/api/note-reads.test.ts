// Issue 20 item 5: admins reading students' notes leave a trail, shown to admins: who read whose notes,
// when. Students cannot read the trail. Issue 35 item 3: a rogue admin cannot erase their reads from it,
// by deleting their account or losing the role; it is kept for NOTE_READ_KEEP_DAYS.
import { createHash } from 'node:crypto';
import { RoleRepository } from '@ct/auth/repositories/roles';
import { LIMITS } from '@ct/contracts/limits';

const NOTE_READ_KEEP_DAYS = LIMITS.noteReadKeepDays;
import { NoteReadRepository } from '@ct/user-data/repositories/note-reads';
import { createVerifiedUser, gatewaySuite, type TestUser } from '@ct/testkit';
import { beforeAll, describe, expect, it } from 'vitest';

let ada: TestUser;
let sam: TestUser;

const { gw } = gatewaySuite({ queue: 'memory', env: { RUN_WORKER: 'false' } });
beforeAll(async () => {
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

describe('the trail outlives its reader (issue 35)', () => {
  /** A new admin who reads Sam's notes once; the reads of the trail that are theirs. */
  async function rogueRead(name: string) {
    const rogue = await createVerifiedUser({ name });
    await new RoleRepository(gw.db).grantRole(rogue.uid, 'admin', rogue.email, 'test');
    const read = await gw.api('GET', '/api/admin/profile-notes', {
      token: rogue.idToken,
      query: { filterUserId: sam.uid },
    });
    expect(read.status).toBe(200);
    return rogue;
  }
  const trail = async () => {
    const r = await gw.api<Reads>('GET', '/api/admin/note-reads', {
      token: ada.idToken,
      query: { limit: 200 },
    });
    expect(r.status).toBe(200);
    return r.body.noteReads;
  };
  const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

  it("keeps a rogue admin's read, with their e-mail then, after they delete their account", async () => {
    const rogue = await rogueRead('Rogue Deleter');
    expect((await trail()).filter((r) => r.readerEmail === rogue.email)).toEqual([
      {
        readerId: rogue.uid,
        readerEmail: rogue.email,
        studentId: sam.uid,
        notes: 2,
        readAt: expect.any(String),
      },
    ]);
    const del = await gw.api('POST', '/api/delete-account', { token: rogue.idToken, body: {} });
    expect(del.status).toBe(200);

    const after = (await trail()).filter((r) => r.readerEmail === rogue.email);
    expect(after).toEqual([
      { readerId: null, readerEmail: rogue.email, studentId: sam.uid, notes: 2, readAt: expect.any(String) },
    ]);
    // No row names the deleted uid any more; its pseudonym (SHA-256) lets the operator tie the read to it.
    const rows = await gw.db.query<{ reader_uid: string | null; reader_sha256: string }>(
      'SELECT reader_uid, reader_sha256 FROM user_data.note_read WHERE reader_email = $1',
      [rogue.email],
    );
    expect(rows.rows).toEqual([{ reader_uid: null, reader_sha256: sha256(rogue.uid) }]);
  });

  it("keeps a read's reader after the role is revoked, and after the reader deletes their data", async () => {
    const rogue = await rogueRead('Rogue Revoked');
    expect(await new RoleRepository(gw.db).revokeRole(rogue.uid)).toBe(true);
    const expected = {
      readerId: rogue.uid,
      readerEmail: rogue.email,
      studentId: sam.uid,
      notes: 2,
      readAt: expect.any(String),
    };
    expect((await trail()).filter((r) => r.readerEmail === rogue.email)).toEqual([expected]);
    const wipe = await gw.api('POST', '/api/delete-my-data', { token: rogue.idToken, body: {} });
    expect(wipe.status).toBe(200);
    expect((await trail()).filter((r) => r.readerEmail === rogue.email)).toEqual([
      { ...expected, readerId: null },
    ]);
  });

  it(`keeps reads for ${NOTE_READ_KEEP_DAYS} days, then purges them`, async () => {
    const insert = (days: number) =>
      gw.db.query(
        `INSERT INTO user_data.note_read (reader_uid, reader_email, student_uid, notes, read_at)
         VALUES ('old-admin', $1, 'old-student', 1, now() - make_interval(days => $2::int))`,
        [`kept-${days}@example.com`, days],
      );
    await insert(NOTE_READ_KEEP_DAYS - 1);
    await insert(NOTE_READ_KEEP_DAYS + 1);
    const listed = (await trail()).map((r) => r.readerEmail);
    expect(listed).toContain(`kept-${NOTE_READ_KEEP_DAYS - 1}@example.com`);
    expect(listed).not.toContain(`kept-${NOTE_READ_KEEP_DAYS + 1}@example.com`);
    expect(await new NoteReadRepository(gw.db).purge(NOTE_READ_KEEP_DAYS)).toBe(1);
    const left = await gw.db.query<{ reader_email: string }>(
      `SELECT reader_email FROM user_data.note_read WHERE student_uid = 'old-student'`,
    );
    expect(left.rows).toEqual([{ reader_email: `kept-${NOTE_READ_KEEP_DAYS - 1}@example.com` }]);
  });
});
