// "Delete my account", decided on the server: a recent sign-in is required, then the sessions end, the
// student's data and staff role are deleted and the Firebase account last. When Firebase refuses the last
// step, the student is told plainly what was and was not deleted, and a retry finishes the job.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { MSG } from '@ct/contracts';
import {
  accountExists,
  adminUpdate,
  createVerifiedUser,
  emulatorHost,
  signIn,
  startTestGateway,
  tokenClaims,
  unsignedToken,
  type TestGateway,
  type TestUser,
} from '@ct/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** Rows the student still has: colleges, notes and a staff role. */
async function leftOf(gw: TestGateway, uid: string): Promise<number> {
  const r = await gw.db.query<{ n: number }>(
    `SELECT (SELECT count(*)::int FROM user_data.note WHERE user_id = $1)
          + (SELECT count(*)::int FROM user_data.user_college WHERE user_id = $1)
          + (SELECT count(*)::int FROM auth.staff_roles WHERE uid = $1) AS n`,
    [uid],
  );
  return r.rows[0]!.n;
}

async function studentWithData(gw: TestGateway, name: string): Promise<TestUser> {
  const user = await createVerifiedUser({ name });
  const note = { note: { title: `${name}'s plan`, content: 'Essays first' } };
  expect((await gw.api('POST', '/api/add-note', { token: user.idToken, body: note })).status).toBe(200);
  await gw.db.query(
    `INSERT INTO auth.staff_roles (uid, role, email, granted_by) VALUES ($1, 'staff', $2, 'test')`,
    [user.uid, user.email],
  );
  expect(await leftOf(gw, user.uid)).toBe(2);
  return user;
}

describe('deleting an account', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ queue: 'memory', env: { RUN_WORKER: 'false' } });
  });
  afterAll(() => gw?.close());

  it('needs a sign-in from the last 5 minutes: an older session deletes nothing', async () => {
    const user = await studentWithData(gw, 'Olivia');
    const now = Math.floor(Date.now() / 1000);
    // A valid session whose sign-in was 10 minutes ago (the token itself was refreshed since); the account
    // is made older than that session, so the session is not taken for a revoked one.
    await adminUpdate(user.uid, { validSince: String(now - 3600) });
    const stale = unsignedToken(
      tokenClaims(user.uid, { email: user.email, auth_time: now - 600, iat: now - 5 }),
    );
    for (const path of ['/api/delete-account', '/api/delete-my-data']) {
      const r = await gw.api('POST', path, { token: stale, body: {} });
      expect(r.status, path).toBe(401);
      expect(r.body, path).toEqual({
        success: false,
        message: MSG.recentSignInRequired,
        code: 'UNAUTHENTICATED',
      });
    }
    expect(await leftOf(gw, user.uid)).toBe(2);
    expect(await accountExists(user.uid)).toBe(true);
  });

  it('deletes the data, the staff role and the Firebase account, and ends the session', async () => {
    const user = await studentWithData(gw, 'Noah');
    const r = await gw.api('POST', '/api/delete-account', {
      token: user.idToken,
      body: { userId: user.uid },
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      success: true,
      message: MSG.accountDeleted,
      data: { colleges: 0, notes: 1, staffRoleRemoved: true },
    });
    expect(await leftOf(gw, user.uid)).toBe(0);
    expect(await accountExists(user.uid)).toBe(false);
    expect((await gw.api('GET', '/api/get-notes', { token: user.idToken })).status).toBe(401);
  });

  it("cannot delete someone else's account", async () => {
    const [mallory, victim] = await Promise.all([createVerifiedUser(), studentWithData(gw, 'Victim')]);
    const r = await gw.api('POST', '/api/delete-account', {
      token: mallory.idToken,
      body: { userId: victim.uid },
    });
    expect(r.status).toBe(403);
    expect(await leftOf(gw, victim.uid)).toBe(2);
    expect(await accountExists(victim.uid)).toBe(true);
    expect(await accountExists(mallory.uid)).toBe(true);
  });
});

describe('when Firebase refuses to delete the account', () => {
  // The real emulator behind a relay that can fail its account deletions, as an outage would.
  let failDeletes = true;
  let relay: http.Server;
  let gw: TestGateway;
  const previousHost = process.env.FIREBASE_AUTH_EMULATOR_HOST;

  beforeAll(async () => {
    const target = emulatorHost();
    relay = http.createServer((req, res) => {
      if (failDeletes && (req.url ?? '').includes('accounts:delete')) {
        res.writeHead(503, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { code: 503, message: 'UNAVAILABLE' } }));
        return;
      }
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const headers = Object.fromEntries(
          Object.entries(req.headers).filter(([k]) => !['host', 'content-length', 'connection'].includes(k)),
        ) as Record<string, string>;
        fetch(`http://${target}${req.url}`, {
          method: req.method,
          headers,
          ...(chunks.length ? { body: Buffer.concat(chunks) } : {}),
        })
          .then(async (r) => {
            res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'application/json' });
            res.end(Buffer.from(await r.arrayBuffer()));
          })
          .catch(() => {
            res.writeHead(502);
            res.end();
          });
      });
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    const relayHost = `127.0.0.1:${(relay.address() as AddressInfo).port}`;
    gw = await startTestGateway({
      queue: 'memory',
      env: { RUN_WORKER: 'false', FIREBASE_AUTH_EMULATOR_HOST: relayHost },
    });
  });
  afterAll(async () => {
    await gw?.close();
    await new Promise((resolve) => relay?.close(resolve));
    process.env.FIREBASE_AUTH_EMULATOR_HOST = previousHost;
  });

  it('says plainly that the data is gone but the account is not, and a retry after signing in finishes', async () => {
    const user = await studentWithData(gw, 'Ava');
    // Revocation counts in whole seconds: tokens from the same second as it stay valid (as in Firebase).
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const r = await gw.api('POST', '/api/delete-account', { token: user.idToken, body: {} });
    expect(r.status).toBe(503);
    expect(r.body).toEqual({
      success: false,
      message: MSG.accountNotDeleted('the sign-in service could not be reached'),
      code: 'DEPENDENCY_UNAVAILABLE',
    });
    expect(String(r.body.message)).not.toMatch(/Firebase|auth\//);
    expect(await leftOf(gw, user.uid)).toBe(0);
    expect(await accountExists(user.uid)).toBe(true);
    // The sessions were ended first: the old token no longer works anywhere.
    expect((await gw.api('GET', '/api/get-notes', { token: user.idToken })).status).toBe(401);

    failDeletes = false;
    const fresh = await signIn(user.email, user.password);
    const retry = await gw.api('POST', '/api/delete-account', { token: fresh, body: {} });
    expect(retry.status).toBe(200);
    expect(retry.body.data).toEqual({ colleges: 0, notes: 0, staffRoleRemoved: false });
    expect(await accountExists(user.uid)).toBe(false);
  });
});
