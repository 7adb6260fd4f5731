import auth from '@ct/auth';
import { RoleRepository } from '@ct/auth/repositories/roles';
import { ROUTES, type RouteDef } from '@ct/contracts';
import { createVerifiedUser, gatewaySuite, type TestUser } from '@ct/testkit';
import { beforeAll, describe, expect, it } from 'vitest';
import admin from './app.ts';

// Only the auth and admin services run here: the colleges and user-data services are "down", which is
// what an admin sees while an owner is deploying, crashed, or not built yet.
let adminUser: TestUser;
let student: TestUser;

const ADMIN_ROUTES = ROUTES.filter((r) => r.service === 'admin');

function call(r: RouteDef, token?: string) {
  return gw.api(r.method, `/api${r.path}`, {
    ...(token ? { token } : {}),
    // A body every admin write accepts, so the answer is about who calls, not what they send.
    ...(r.method === 'GET'
      ? {}
      : {
          body: {
            key: 'some college',
            kind: 'review',
            collegeId: 2_000_000_001,
            into: 'Some College',
            factId: 2_000_000_001,
            decision: 'drop',
          },
        }),
  });
}

const { gw } = gatewaySuite({ queue: 'memory', modules: [auth, admin] });
beforeAll(async () => {
  [adminUser, student] = await Promise.all([
    createVerifiedUser({ name: 'Ada Admin' }),
    createVerifiedUser({ name: 'Sam Student' }),
  ]);
  await new RoleRepository(gw.db).grantRole(adminUser.uid, 'admin', adminUser.email, 'test');
});

describe('admin service access', () => {
  it('has every route of the table for the admin service, each with access "admin"', () => {
    expect(ADMIN_ROUTES.map((r) => r.path).sort()).toEqual(
      [
        '/admin/colleges',
        '/admin/college-reviews',
        '/admin/college-reviews/approve',
        '/admin/colleges/merge',
        '/admin/colleges/delete',
        '/admin/fact-reviews',
        '/admin/fact-reviews/decide',
        '/admin/ingestion',
        '/admin/ingestion/retry',
        '/admin/major-colleges',
        '/admin/metrics',
        '/admin/note-reads',
        '/admin/profile-notes',
        '/admin/staff',
        '/admin/user-colleges',
      ].sort(),
    );
    for (const r of ADMIN_ROUTES) expect(r.access, r.path).toBe('admin');
  });

  it.each(ADMIN_ROUTES.map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s: 401 for an anonymous caller, 403 for a student',
    async (_name, r) => {
      const anon = await call(r);
      expect(anon.status).toBe(401);
      expect(anon.body).toMatchObject({ success: false, code: 'UNAUTHENTICATED' });
      const asStudent = await call(r, student.idToken);
      expect(asStudent.status).toBe(403);
      expect(asStudent.body).toEqual({ success: false, message: 'Admins only', code: 'FORBIDDEN' });
    },
  );

  it("refuses an admin who sends someone else's userId", async () => {
    const r = await gw.api('GET', '/api/admin/staff', {
      token: adminUser.idToken,
      query: { userId: student.uid },
    });
    expect(r.status).toBe(403);
  });

  it('stops an admin the moment the role is revoked (checked on every call)', async () => {
    const roles = new RoleRepository(gw.db);
    const temp = await createVerifiedUser({ name: 'Temporary Admin' });
    await roles.grantRole(temp.uid, 'admin', temp.email, 'test');
    expect((await gw.api('GET', '/api/admin/staff', { token: temp.idToken })).status).toBe(200);
    await roles.revokeRole(temp.uid);
    expect((await gw.api('GET', '/api/admin/staff', { token: temp.idToken })).status).toBe(403);
  });
});

describe('admin service with owners down', () => {
  it('lists staff from the auth service, filtered by user id and role, paginated', async () => {
    const roles = new RoleRepository(gw.db);
    const ids = ['staffer-aa1', 'staffer-aa2', 'staffer-bb3'];
    for (const id of ids) await roles.grantRole(id, 'staff', `${id}@example.com`, 'test');

    const all = await gw.api<{ total: number; staff: { userId: string; role: string }[] }>(
      'GET',
      '/api/admin/staff',
      { token: adminUser.idToken, query: { userId: adminUser.uid } },
    );
    expect(all.status).toBe(200);
    expect(all.body.staff.map((s) => s.userId)).toEqual(expect.arrayContaining([adminUser.uid, ...ids]));

    const byId = await gw.api<{ total: number; staff: { userId: string }[] }>('GET', '/api/admin/staff', {
      token: adminUser.idToken,
      query: { filterUserId: 'staffer-aa' },
    });
    expect(byId.body.total).toBe(2);
    expect(byId.body.staff.map((s) => s.userId)).toEqual(['staffer-aa1', 'staffer-aa2']);

    const admins = await gw.api<{ total: number; staff: { userId: string; role: string }[] }>(
      'GET',
      '/api/admin/staff',
      { token: adminUser.idToken, query: { role: 'admin' } },
    );
    expect(admins.body.staff.every((s) => s.role === 'admin')).toBe(true);
    expect(admins.body.staff.map((s) => s.userId)).toContain(adminUser.uid);

    const page2 = await gw.api<{ total: number; staff: { userId: string }[] }>('GET', '/api/admin/staff', {
      token: adminUser.idToken,
      query: { filterUserId: 'staffer-', limit: 2, offset: 2 },
    });
    expect(page2.body.total).toBe(3);
    expect(page2.body.staff.map((s) => s.userId)).toEqual(['staffer-bb3']);
  });

  it('answers 503 with a clear message rather than a made-up figure', async () => {
    const m = await gw.api('GET', '/api/admin/metrics', { token: adminUser.idToken });
    expect(m.status).toBe(503);
    expect(m.body).toEqual({
      success: false,
      code: 'DEPENDENCY_UNAVAILABLE',
      message:
        'The colleges service and student data service are not answering right now, so this data cannot be shown. Please try again in a moment.',
    });
    for (const path of ['/admin/colleges', '/admin/major-colleges', '/admin/ingestion']) {
      const r = await gw.api('GET', `/api${path}`, { token: adminUser.idToken });
      expect(r.status, path).toBe(503);
      expect(r.body, path).toMatchObject({
        message: expect.stringContaining('The colleges service is not answering'),
      });
    }
    for (const path of ['/admin/user-colleges', '/admin/profile-notes']) {
      const r = await gw.api('GET', `/api${path}`, { token: adminUser.idToken });
      expect(r.status, path).toBe(503);
      expect(r.body, path).toMatchObject({ message: expect.stringContaining('student data service') });
    }
    const retry = await gw.api('POST', '/api/admin/ingestion/retry', {
      token: adminUser.idToken,
      body: { key: 'nowhere college' },
    });
    expect(retry.status).toBe(503);
  });

  it('refuses bad input with 400 and a readable message', async () => {
    const r = await gw.api('GET', '/api/admin/staff', { token: adminUser.idToken, query: { limit: 0 } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
    const noKey = await gw.api('POST', '/api/admin/ingestion/retry', { token: adminUser.idToken, body: {} });
    expect(noKey.status).toBe(400);
    expect((noKey.body as { message: string }).message).toMatch(/key/);
  });
});
