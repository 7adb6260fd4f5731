import { RoleRepository } from '@ct/auth/repositories/roles';
import { CollegeRepository } from '@ct/colleges/repositories/colleges';
import { ROUTES } from '@ct/contracts';
import { buildCollege, createVerifiedUser, gatewaySuite, type TestUser } from '@ct/testkit';
import { beforeAll, describe, expect, it } from 'vitest';

// The whole product in one process on a fresh Postgres database and real Redis: the admin service reads
// every figure from the owning services, so what the students and the seed created is what it must show.
let admin: TestUser;
let ana: TestUser;
let ben: TestUser;

const COLLEGES = 10_000;
const WORDS = [
  'Harbor',
  'Summit',
  'Prairie',
  'Lakeside',
  'Granite',
  'Cedar',
  'Beacon',
  'Meadow',
  'Falcon',
  'Willow',
];
/** 1,000 of the 10,000 names contain each word. */
const collegeName = (i: number) => `${WORDS[i % 10]} Test College ${String(i).padStart(5, '0')}`;
const STATES = ['CA', 'TX', 'NY', 'IL'];

type Json = Record<string, unknown>;
const get = <T = Json>(path: string, token: string | undefined, query: Json = {}) =>
  gw.api<T>('GET', `/api${path}`, { ...(token ? { token } : {}), query });

const { gw } = gatewaySuite();
beforeAll(async () => {
  [admin, ana, ben] = await Promise.all([
    createVerifiedUser({ name: 'Ada Admin' }),
    createVerifiedUser({ name: 'Ana Student' }),
    createVerifiedUser({ name: 'Ben Student' }),
  ]);
  const roles = new RoleRepository(gw.db);
  await roles.grantRole(admin.uid, 'admin', admin.email, 'test');
  await roles.grantRole('counselor-one', 'staff', 'one@example.com', 'test');
  await roles.grantRole('counselor-two', 'staff', 'two@example.com', 'test');

  const docs = Array.from({ length: COLLEGES }, (_, i) =>
    buildCollege({
      name: collegeName(i),
      demographics: { schoolCity: `City ${i}`, schoolState: STATES[i % 4]! },
    }),
  );
  // One batched insert (the colleges service's own bulk upsert, as its Scorecard import uses), instead of
  // 10,000 single-row upserts.
  await new CollegeRepository(gw.db).upsertColleges(docs);

  // Ana keeps a college and a note; Ben only a note. Through the real user-data API.
  const added = await gw.api('POST', '/api/add-user-college', {
    token: ana.idToken,
    body: { collegeName: collegeName(42) },
  });
  expect(added.status, JSON.stringify(added.body)).toBe(200);
  for (const [user, title] of [
    [ana, 'Visit day'],
    [ben, 'Ask for recommendation'],
  ] as const) {
    const r = await gw.api('POST', '/api/add-note', {
      token: user.idToken,
      body: { note: { title, content: `${title}: remember`, deadline: null } },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  }
}, 180_000);

describe('admin API: who may call it', () => {
  const adminRoutes = ROUTES.filter((r) => r.service === 'admin');
  it.each(adminRoutes.map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s refuses anonymous callers (401) and students (403), and changes nothing',
    async (_name, r) => {
      // A body every admin write accepts, so the refusal is about who calls, not what they send.
      const body = {
        key: 'harbor test college 00000',
        kind: 'review',
        collegeId: 2_000_000_001,
        into: 'Nowhere',
        factId: 2_000_000_001,
        decision: 'drop',
      };
      const opts = r.method === 'GET' ? {} : { body };
      const anon = await gw.api(r.method, `/api${r.path}`, opts);
      expect(anon.status).toBe(401);
      const student = await gw.api(r.method, `/api${r.path}`, { ...opts, token: ana.idToken });
      expect(student.status).toBe(403);
      expect(student.body).toMatchObject({ success: false, code: 'FORBIDDEN' });
    },
  );
});

describe('admin API: figures match what exists', () => {
  it('metrics count the colleges, staff and student profiles created in this test', async () => {
    const r = await get<{ success: boolean; metrics: Json }>('/admin/metrics', admin.idToken, {
      userId: admin.uid,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toEqual({ success: true, metrics: { colleges: COLLEGES, staff: 3, profiles: 2 } });
  });

  it("lists a student's colleges and notes, filtered by user id", async () => {
    const uc = await get<{ total: number; userColleges: Json[] }>('/admin/user-colleges', admin.idToken, {
      filterUserId: ana.uid,
    });
    expect(uc.status, JSON.stringify(uc.body)).toBe(200);
    expect(uc.body).toMatchObject({
      success: true,
      total: 1,
      userColleges: [{ userId: ana.uid, colleges: [{ collegeName: collegeName(42) }] }],
    });
    const none = await get<{ total: number }>('/admin/user-colleges', admin.idToken, {
      filterUserId: ben.uid,
    });
    expect(none.body.total).toBe(0);

    const notes = await get<{ total: number; profileNotes: { userId: string; notes: Json[] }[] }>(
      '/admin/profile-notes',
      admin.idToken,
      { filterUserId: ben.uid },
    );
    expect(notes.status, JSON.stringify(notes.body)).toBe(200);
    expect(notes.body.total).toBe(1);
    expect(notes.body.profileNotes).toEqual([
      {
        userId: ben.uid,
        notes: [
          {
            title: 'Ask for recommendation',
            content: 'Ask for recommendation: remember',
            createdAt: expect.any(String),
          },
        ],
      },
    ]);
    const everyone = await get<{ total: number }>('/admin/profile-notes', admin.idToken);
    expect(everyone.body.total).toBe(2);
  });

  it('lists staff filtered by role', async () => {
    const r = await get<{ total: number; staff: Json[] }>('/admin/staff', admin.idToken, { role: 'staff' });
    expect(r.body).toEqual({
      success: true,
      total: 2,
      staff: [
        { userId: 'counselor-one', role: 'staff', email: 'one@example.com' },
        { userId: 'counselor-two', role: 'staff', email: 'two@example.com' },
      ],
    });
  });

  it('answers the major colleges listing (empty until a major profile is gathered)', async () => {
    const r = await get<{ total: number; majorColleges: Json[] }>('/admin/major-colleges', admin.idToken, {
      name: 'Computer',
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toEqual({ success: true, total: 0, majorColleges: [] });
  });
});

describe('admin API: 10,000 colleges, filtered and paginated on the server', () => {
  type Page = {
    success: boolean;
    total: number;
    colleges: { name: string; city: string | null; state: string | null; createdAt: string; data?: Json }[];
  };

  it('pages through every college without gaps or repeats', async () => {
    const first = await get<Page>('/admin/colleges', admin.idToken, { limit: 200 });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.total).toBe(COLLEGES);
    expect(first.body.colleges).toHaveLength(200);
    expect(first.body.colleges[0]).not.toHaveProperty('data');
    const second = await get<Page>('/admin/colleges', admin.idToken, { limit: 200, offset: 200 });
    const a = new Set(first.body.colleges.map((c) => c.name));
    expect(second.body.colleges.filter((c) => a.has(c.name))).toEqual([]);
    const last = await get<Page>('/admin/colleges', admin.idToken, { limit: 200, offset: COLLEGES - 50 });
    expect(last.body.colleges).toHaveLength(50);
    const beyond = await get<Page>('/admin/colleges', admin.idToken, { offset: COLLEGES });
    expect(beyond.body).toMatchObject({ total: COLLEGES, colleges: [] });
  });

  it('filters by name: one word matches exactly its 1,000 colleges, walked page by page', async () => {
    const seen = new Set<string>();
    for (let offset = 0; offset < 1000; offset += 200) {
      const r = await get<Page>('/admin/colleges', admin.idToken, { name: 'harbor', limit: 200, offset });
      expect(r.body.total).toBe(1000);
      for (const c of r.body.colleges) {
        expect(c.name).toMatch(/^Harbor Test College \d{5}$/);
        seen.add(c.name);
      }
    }
    const expected = Array.from({ length: COLLEGES }, (_, i) => collegeName(i)).filter((n) =>
      n.startsWith('Harbor'),
    );
    expect([...seen].sort()).toEqual(expected.sort());
  });

  it('finds one college by its full name, with city, state and created at; full data on request', async () => {
    const name = collegeName(1234);
    const r = await get<Page>('/admin/colleges', admin.idToken, { name });
    expect(r.body.total).toBe(1);
    const row = r.body.colleges[0]!;
    expect(row).toMatchObject({ name, city: 'City 1234', state: STATES[1234 % 4] });
    expect(Number.isNaN(Date.parse(row.createdAt))).toBe(false);

    const full = await get<Page>('/admin/colleges', admin.idToken, { name, full: true });
    expect(full.body.colleges[0]!.data).toMatchObject({
      name,
      demographics: { schoolCity: 'City 1234' },
      info: { deadlines: expect.any(Array) },
    });
  });

  it('treats filter text as text, not as a pattern or SQL', async () => {
    // As LIKE patterns these would match; as text they match nothing.
    for (const name of ['Harbor%00001', 'Harbor_00001', "' OR 1=1 --", 'Harbor%College']) {
      const r = await get<Page>('/admin/colleges', admin.idToken, { name });
      expect(r.status, name).toBe(200);
      expect(r.body.total, name).toBe(0);
    }
  });

  it('refuses a page size over 200 with a readable message', async () => {
    const r = await get('/admin/colleges', admin.idToken, { limit: 5000 });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({
      success: false,
      code: 'VALIDATION_ERROR',
      message: expect.stringMatching(/limit/),
    });
  });
});

describe('admin API: ingestion overview and retry', () => {
  type Overview = {
    ingestion: {
      queue: Record<string, number>;
      running: Json[];
      failed: { key: string; name: string; state: string; failureReason: string | null }[];
      totalFailed: number;
    };
  };
  const NAME = 'Imaginary Nowhere College of Testing';

  it('shows a failed request with its reason, and Retry queues it again', async () => {
    // No Scorecard or AI key is configured here, so gathering an unknown college fails with a reason.
    const asked = await gw.api<{ data: { key: string } }>('POST', '/api/add-college', {
      token: ana.idToken,
      body: { name: NAME },
    });
    expect(asked.status, JSON.stringify(asked.body)).toBe(202);
    const key = asked.body.data.key;

    let failed: Overview['ingestion']['failed'][number] | undefined;
    await expect
      .poll(
        async () => {
          const r = await get<Overview>('/admin/ingestion', admin.idToken);
          expect(r.status, JSON.stringify(r.body)).toBe(200);
          failed = r.body.ingestion.failed.find((f) => f.key === key);
          return failed?.state;
        },
        { timeout: 60_000, interval: 500 },
      )
      .toBe('failed');
    expect(failed!.failureReason).toEqual(expect.stringMatching(/\S/));

    const retry = await gw.api<{
      success: boolean;
      message: string;
      request: { key: string; state: string };
    }>('POST', '/api/admin/ingestion/retry', { token: admin.idToken, body: { key } });
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
    expect(retry.body.success).toBe(true);
    expect(retry.body.message).toBe(`Retry queued for ${NAME}.`);
    expect(retry.body.request.key).toBe(key);
    expect(['queued', 'running']).toContain(retry.body.request.state);
  }, 90_000);

  it('says so when asked to retry a request that does not exist', async () => {
    const r = await gw.api('POST', '/api/admin/ingestion/retry', {
      token: admin.idToken,
      body: { key: 'no such college anywhere' },
    });
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ success: false, code: 'NOT_FOUND', message: expect.stringMatching(/\S/) });
  });
});
