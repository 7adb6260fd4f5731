// The operators' queue dashboard: behind the admin role (checked on the server, on every request), a
// bull-board UI on Redis and a plain read-only page for the embedded run's in-process queue.
import { randomBytes } from 'node:crypto';
import { RoleRepository } from '@ct/auth/repositories/roles';
import { createOpsSession, readOpsSession } from '@ct/gateway/plugins/ops/session';
import { INGESTION_QUEUE } from '@ct/contracts';
import {
  createVerifiedUser,
  disableUser,
  gatewaySuite,
  revokeTokens,
  startTestGateway,
  TEST_REDIS_URL,
  type TestGateway,
  type TestUser,
} from '@ct/testkit';
import { beforeAll, describe, expect, it } from 'vitest';

interface QueuesBody {
  success: boolean;
  kind: string;
  dashboard: string | null;
  queues: Array<{ name: string; counts: Record<string, number> }>;
}

let admin: TestUser;
let student: TestUser;

beforeAll(async () => {
  [admin, student] = await Promise.all([
    createVerifiedUser({ name: 'Operator' }),
    createVerifiedUser({ name: 'Student' }),
  ]);
});

async function grantAdmin(gw: TestGateway) {
  await new RoleRepository(gw.db).grantRole(admin.uid, 'admin', admin.email, 'test');
}

/** Starts a dashboard session the way the browser does and returns its cookie. */
async function session(gw: TestGateway, token: string): Promise<{ status: number; cookie: string }> {
  const res = await gw.api('POST', '/api/ops/session', { token });
  const raw = res.headers['set-cookie'];
  const cookie = String(Array.isArray(raw) ? raw[0] : (raw ?? ''));
  return { status: res.status, cookie };
}

describe.each([
  { queue: 'bullmq' as const, kind: 'bullmq' },
  { queue: 'memory' as const, kind: 'memory' },
])('queue dashboard on the $queue queue', ({ queue, kind }) => {
  const { gw } = gatewaySuite({ queue, env: { RUN_WORKER: 'false' } });
  beforeAll(async () => {
    await grantAdmin(gw);
    if (queue === 'bullmq') {
      // One waiting job, so the counts show something real.
      const { BullQueue } = await import('@ct/queue');
      const q = new BullQueue({ url: TEST_REDIS_URL, prefix: gw.prefix });
      await q.add(
        INGESTION_QUEUE,
        'ingest-college',
        { key: 'dash', name: 'Dashboard College' },
        { jobId: 'dash' },
      );
      await q.close();
    }
  });

  it('is closed to anonymous visitors and to students, as JSON for API clients and a page for browsers', async () => {
    const anon = await gw.api('GET', '/api/ops/queues');
    expect(anon.status).toBe(401);
    expect(anon.body).toMatchObject({ success: false, code: 'UNAUTHENTICATED' });
    const asStudent = await gw.api('GET', '/api/ops/queues', { token: student.idToken });
    expect(asStudent.status).toBe(403);
    expect(asStudent.body).toMatchObject({ success: false, message: 'Admins only' });

    const page = await gw.app.inject({ method: 'GET', url: '/ops/queues', headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(401);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('Sign in as an admin first');
    const studentPage = await gw.app.inject({
      method: 'GET',
      url: '/ops/queues',
      headers: { accept: 'text/html', authorization: `Bearer ${student.idToken}` },
    });
    expect(studentPage.statusCode).toBe(403);
    expect(studentPage.body).toContain('not an admin');
    // A student cannot open a dashboard session either.
    expect((await session(gw, student.idToken)).status).toBe(403);
  });

  it('shows an admin the jobs per state of every queue', async () => {
    const res = await gw.api<QueuesBody>('GET', '/api/ops/queues', { token: admin.idToken });
    expect(res.status).toBe(200);
    expect(res.body.kind).toBe(kind);
    expect(res.body.dashboard).toBe('/ops/queues');
    const names = res.body.queues.map((q) => q.name);
    expect(names).toEqual(expect.arrayContaining([INGESTION_QUEUE, 'events.essays', 'events.user-data']));
    const ingestion = res.body.queues.find((q) => q.name === INGESTION_QUEUE)!;
    expect(ingestion.counts.waiting).toBe(queue === 'bullmq' ? 1 : 0);
  });

  it('lets an admin browser in with a session cookie scoped to the dashboard, and never a forged one', async () => {
    const { status, cookie } = await session(gw, admin.idToken);
    expect(status).toBe(200);
    expect(cookie).toMatch(/^ct_ops=[^;]+; Path=\/ops\/queues; Max-Age=3600; HttpOnly; SameSite=Strict/);
    const value = cookie.split(';')[0]!;
    const page = await gw.app.inject({
      method: 'GET',
      url: '/ops/queues',
      headers: { accept: 'text/html', cookie: value },
    });
    expect(page.statusCode).toBe(200);
    if (kind === 'bullmq') {
      // bull-board's app shell, titled for this product, and its API answering with our queues.
      expect(page.body).toContain('static/js/main.');
      const api = await gw.app.inject({
        method: 'GET',
        url: '/ops/queues/api/queues',
        headers: { cookie: value },
      });
      expect(api.statusCode).toBe(200);
      const queues = (api.json() as { queues: Array<{ name: string; readOnlyMode: boolean }> }).queues;
      expect(queues.map((q) => q.name)).toContain(INGESTION_QUEUE);
      // Read-only: retries go through the admin page so the request rows stay the source of truth.
      expect(queues.every((q) => q.readOnlyMode)).toBe(true);
    } else {
      expect(page.body).toContain('in-process queue');
      expect(page.body).toContain('<th scope="row">ingestion</th>');
    }

    const [payload, mac] = value.slice('ct_ops='.length).split('.');
    const forged = Buffer.from(JSON.stringify({ uid: admin.uid, exp: 9_999_999_999 })).toString('base64url');
    for (const bad of [
      `ct_ops=${forged}.${mac}`,
      `ct_ops=${payload}.AAAA${mac!.slice(4)}`,
      'ct_ops=garbage',
    ]) {
      const res = await gw.app.inject({
        method: 'GET',
        url: '/ops/queues',
        headers: { accept: 'text/html', cookie: bad },
      });
      expect(res.statusCode, bad).toBe(401);
    }
  });

  it('stops letting a session in as soon as the admin role is taken away', async () => {
    const { cookie } = await session(gw, admin.idToken);
    const value = cookie.split(';')[0]!;
    await gw.db.query('DELETE FROM auth.staff_roles WHERE uid = $1', [admin.uid]);
    try {
      for (const url of ['/api/ops/queues', '/ops/queues']) {
        const res = await gw.app.inject({
          method: 'GET',
          url,
          headers: { accept: 'text/html', cookie: value },
        });
        expect(res.statusCode, url).toBe(403);
      }
    } finally {
      await grantAdmin(gw);
    }
  });
});

describe('the dashboard session cookie', () => {
  it('is signed with OPS_SESSION_SECRET: a cookie made with the internal token is refused', async () => {
    const internalToken = randomBytes(32).toString('hex');
    const opsSecret = randomBytes(32).toString('hex');
    const gw = await startTestGateway({
      queue: 'memory',
      env: { RUN_WORKER: 'false', INTERNAL_TOKEN: internalToken, OPS_SESSION_SECRET: opsSecret },
    });
    try {
      await grantAdmin(gw);
      const open = (value: string) =>
        gw.app
          .inject({
            method: 'GET',
            url: '/ops/queues',
            headers: { accept: 'text/html', cookie: `ct_ops=${value}` },
          })
          .then((r) => r.statusCode);
      expect(await open(createOpsSession(opsSecret, admin.uid, 600))).toBe(200);
      expect(await open(createOpsSession(internalToken, admin.uid, 600))).toBe(401);
      // And what the gateway hands out is the OPS_SESSION_SECRET kind.
      const { cookie } = await session(gw, admin.idToken);
      const value = cookie.split(';')[0]!.slice('ct_ops='.length);
      expect(readOpsSession(opsSecret, value)?.uid).toBe(admin.uid);
      expect(readOpsSession(internalToken, value)).toBeNull();
      // A session started in the very millisecond of the grant comes after it: CI once saw a 403 here
      // when the grant's time kept Postgres's microseconds.
      const grant = await new RoleRepository(gw.db).findGrant(admin.uid);
      const sameMs = Math.floor(grant!.grantedAtMs);
      expect(await open(createOpsSession(opsSecret, admin.uid, 600, sameMs))).toBe(200);
    } finally {
      await gw.close();
    }
  });
});

// Issue 35 item 7: after an admin's account was disabled the bearer token got 401, but the cookie still
// opened the dashboard for up to an hour. Every cookie request now checks the account as the bearer path
// does, and a refused session is ended (the browser is told to drop the cookie).
describe('a dashboard session ends with its account or its role', () => {
  const { gw } = gatewaySuite({ queue: 'memory', env: { RUN_WORKER: 'false' } });

  /** A fresh admin with a dashboard session: the user and its cookie (`ct_ops=...`). */
  async function adminWithSession(name: string) {
    const user = await createVerifiedUser({ name });
    await new RoleRepository(gw.db).grantRole(user.uid, 'admin', user.email, 'test');
    const { status, cookie } = await session(gw, user.idToken);
    expect(status).toBe(200);
    return { user, cookie: cookie.split(';')[0]! };
  }
  /** The page and the JSON counts, with the cookie only. */
  const withCookie = (cookie: string) =>
    Promise.all(
      ['/ops/queues', '/api/ops/queues'].map((url) =>
        gw.app.inject({ method: 'GET', url, headers: { accept: 'text/html', cookie } }),
      ),
    );
  const ended = (res: { headers: Record<string, unknown> }) =>
    String(res.headers['set-cookie'] ?? '').startsWith('ct_ops=; Path=/ops/queues; Max-Age=0');

  it('refuses the cookie of a disabled admin at once, as the bearer token, and ends the session', async () => {
    const { user, cookie } = await adminWithSession('Rogue Disabled');
    expect((await withCookie(cookie)).map((r) => r.statusCode)).toEqual([200, 200]);
    await disableUser(user.uid);
    expect((await gw.api('GET', '/api/ops/queues', { token: user.idToken })).status).toBe(401);
    const [page, api] = await withCookie(cookie);
    expect(page!.statusCode).toBe(401);
    expect(page!.body).toContain('Sign in as an admin first');
    expect(api!.statusCode).toBe(401);
    expect(api!.json()).toMatchObject({ success: false, message: 'Your account has been disabled.' });
    expect(ended(page!) && ended(api!)).toBe(true);
  });

  it("refuses the cookie once the account's tokens are revoked (signed out everywhere)", async () => {
    const { user, cookie } = await adminWithSession('Revoked Tokens');
    await revokeTokens(user.uid);
    const [, api] = await withCookie(cookie);
    expect(api!.statusCode).toBe(401);
    expect(api!.json()).toMatchObject({ message: 'Your session was revoked. Please sign in again.' });
    expect(ended(api!)).toBe(true);
  });

  it('refuses the cookie of a deleted account', async () => {
    const { user, cookie } = await adminWithSession('Deleted Admin');
    const del = await gw.api('POST', '/api/delete-account', { token: user.idToken, body: {} });
    expect(del.status).toBe(200);
    const [page, api] = await withCookie(cookie);
    expect([page!.statusCode, api!.statusCode]).toEqual([401, 401]);
    expect(api!.json()).toMatchObject({ message: 'Your account no longer exists.' });
  });

  it('ends a session when the role is revoked: granting it again does not bring that session back', async () => {
    const { user, cookie } = await adminWithSession('Revoked Role');
    await new RoleRepository(gw.db).revokeRole(user.uid);
    const [page, api] = await withCookie(cookie);
    expect([page!.statusCode, api!.statusCode]).toEqual([403, 403]);
    expect(ended(page!) && ended(api!)).toBe(true);
    await new RoleRepository(gw.db).grantRole(user.uid, 'admin', user.email, 'test');
    expect((await withCookie(cookie)).map((r) => r.statusCode)).toEqual([403, 403]);
    // A new session, started after the new grant, opens it.
    const again = await session(gw, user.idToken);
    expect((await withCookie(again.cookie.split(';')[0]!)).map((r) => r.statusCode)).toEqual([200, 200]);
  });
});
