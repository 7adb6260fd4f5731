import {
  createVerifiedUser,
  disableUser,
  gatewaySuite,
  revokeTokens,
  signUp,
  signUpAnonymously,
  startTestGateway,
  tokenClaims,
  uniqueEmail,
  unsignedToken,
  type TestUser,
} from '@ct/testkit';
import { defineService, withBase, type ServiceModule } from '@ct/service-kit';
import Type from 'typebox';
import { beforeAll, describe, expect, it } from 'vitest';

let alice: TestUser;
let bob: TestUser;

const { gw } = gatewaySuite();
beforeAll(async () => {
  [alice, bob] = await Promise.all([
    createVerifiedUser({ name: 'Alice' }),
    createVerifiedUser({ name: 'Bob' }),
  ]);
});

// A user-scoped route of the auth service: it works as soon as the foundation does.
const ROUTE = '/api/get-staff-roles';

describe('gateway identity', () => {
  it('answers health and readiness', async () => {
    expect((await gw.api('GET', '/api/healthz')).status).toBe(200);
    const ready = await gw.api('GET', '/api/readyz');
    expect(ready.body).toMatchObject({ success: true, checks: { store: 'ok', queue: 'ok', auth: 'ok' } });
  });

  it('refuses a missing token with 401 and the spec message', async () => {
    const r = await gw.api('GET', ROUTE);
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ success: false, message: 'User not authenticated', code: 'UNAUTHENTICATED' });
  });

  it.each([
    ['garbage', () => 'not-a-jwt'],
    [
      'expired',
      () =>
        unsignedToken(
          tokenClaims(alice.uid, { iat: 1_600_000_000, auth_time: 1_600_000_000, exp: 1_600_003_600 }),
        ),
    ],
    [
      'foreign-project',
      () =>
        unsignedToken(
          tokenClaims(alice.uid, { aud: 'demo-other', iss: 'https://securetoken.google.com/demo-other' }),
        ),
    ],
  ])('refuses a %s token with 401', async (_label, token) => {
    const r = await gw.api('GET', ROUTE, { token: token() });
    expect(r.status).toBe(401);
    expect(r.body).toMatchObject({ success: false, code: 'UNAUTHENTICATED' });
  });

  it('accepts a valid token: the role lookup reaches the auth service', async () => {
    const r = await gw.api('GET', ROUTE, { token: alice.idToken });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      success: true,
      message: 'No staff role found for user',
      role: null,
      data: null,
    });
  });

  it('tells a signed-in caller who they are, from the verified token', async () => {
    const r = await gw.api('GET', '/api/me', { token: alice.idToken });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      success: true,
      data: { uid: alice.uid, email: alice.email, emailVerified: true },
    });
  });

  it("refuses a userId that is not the token's uid with 403, and accepts the matching one", async () => {
    const foreign = await gw.api('GET', ROUTE, { token: alice.idToken, query: { userId: bob.uid } });
    expect(foreign.status).toBe(403);
    const own = await gw.api('GET', ROUTE, { token: alice.idToken, query: { userId: alice.uid } });
    expect(own.status).toBe(200);
  });

  it('refuses an unverified e-mail account', async () => {
    const u = await signUp(uniqueEmail('unverified'), 'Secret-pass-123');
    const r = await gw.api('GET', ROUTE, { token: u.idToken });
    expect(r.status).toBe(401);
    expect(r.body.message).toBe('Your email is not verified. Please verify your email before logging in.');
  });

  it('refuses a guest (anonymous) account with a clear 401: only verified password accounts and Google', async () => {
    const guest = await signUpAnonymously();
    for (const path of [ROUTE, '/api/me', '/api/get-notes']) {
      const r = await gw.api('GET', path, { token: guest.idToken });
      expect(r.status, path).toBe(401);
      expect(r.body, path).toEqual({
        success: false,
        message:
          'Guest sign-in is not supported. Please sign in with your email and password or with Google.',
        code: 'UNAUTHENTICATED',
      });
    }
    // Another provider than password or Google (a custom token, a phone number...) is refused too. Signed
    // in now: a session from before the account existed would be refused as revoked instead.
    const now = Math.floor(Date.now() / 1000);
    const custom = unsignedToken(
      tokenClaims(alice.uid, {
        auth_time: now,
        iat: now,
        firebase: { identities: {}, sign_in_provider: 'custom' },
      }),
    );
    const r = await gw.api('GET', ROUTE, { token: custom });
    expect(r.status).toBe(401);
    expect(r.body.message).toBe(
      'This sign-in method is not supported. Please sign in with your email and password or with Google.',
    );
    // Google accounts are students like any other.
    const google = unsignedToken(
      tokenClaims(bob.uid, {
        auth_time: now,
        iat: now,
        firebase: { identities: {}, sign_in_provider: 'google.com' },
      }),
    );
    // Let through: the role lookup answers (no role).
    expect((await gw.api('GET', ROUTE, { token: google })).status).toBe(200);
  });

  it('refuses revoked and disabled users', async () => {
    const [carol, dave] = await Promise.all([createVerifiedUser(), createVerifiedUser()]);
    expect((await gw.api('GET', ROUTE, { token: carol.idToken })).status).toBe(200);
    await revokeTokens(carol.uid);
    const revoked = await gw.api('GET', ROUTE, { token: carol.idToken });
    expect(revoked.status).toBe(401);
    expect(revoked.body.message).toMatch(/revoked/);
    await disableUser(dave.uid);
    const disabled = await gw.api('GET', ROUTE, { token: dave.idToken });
    expect(disabled.status).toBe(401);
    expect(disabled.body.message).toMatch(/disabled/);
  });

  it('never exposes internal routes', async () => {
    const r = await gw.api('GET', `/api/internal/staff-role/${alice.uid}`, { token: alice.idToken });
    expect(r.status).toBe(404);
    const forged = await gw.api('GET', '/api/internal/staff', {
      headers: { 'x-internal-token': 'guess-guess-guess-guess' },
    });
    expect(forged.status).toBe(404);
  });

  it('serves OpenAPI generated from the route schemas', async () => {
    const r = await gw.api<{ paths: Record<string, unknown> }>('GET', '/api/docs/json');
    expect(r.status).toBe(200);
    expect(Object.keys(r.body.paths)).toContain('/api/search-college');
    expect(Object.keys(r.body.paths).some((p) => p.includes('/internal/'))).toBe(false);
  });

  it('answers bad JSON and oversized bodies with clear 4xx errors', async () => {
    const bad = await gw.app.inject({
      method: 'POST',
      url: '/api/add-college',
      headers: { authorization: `Bearer ${alice.idToken}`, 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
    const huge = await gw.app.inject({
      method: 'POST',
      url: '/api/add-college',
      headers: { authorization: `Bearer ${alice.idToken}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'x'.repeat(1024 * 1024) }),
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toMatchObject({ success: false, code: 'PAYLOAD_TOO_LARGE' });
  });
});

describe('embedded modules', () => {
  it("builds a module's dependencies once and gives its routes, its plugin and its start-up the same object", async () => {
    const built: object[] = [];
    const given: Array<[string, object]> = [];
    const mod = defineService({
      name: 'ingestion-worker',
      schema: null,
      migrationsDir: null,
      config: withBase({}),
      deps(ctx) {
        const deps = { ctx, repo: { n: built.length } };
        built.push(deps);
        return deps;
      },
      routes(deps) {
        given.push(['routes', deps]);
        return [];
      },
      async plugin(_app, deps) {
        given.push(['plugin', deps]);
      },
      async start(deps) {
        given.push(['start', deps]);
      },
    }) as unknown as ServiceModule;
    const one = await startTestGateway({ modules: [mod], store: 'pglite', queue: 'memory' });
    try {
      expect(built).toHaveLength(1);
      expect(given.map(([what]) => what)).toEqual(['routes', 'plugin', 'start']);
      for (const [, deps] of given) expect(deps).toBe(built[0]);
    } finally {
      await one.close();
    }
  });

  it("each gets its own settings, parsed once by its own schema; bad ones stop the start with every module's problems", async () => {
    const Own = withBase({ QUILL_LIMIT: Type.Integer({ minimum: 1, default: 5 }) });
    const seen: Array<Record<string, unknown>> = [];
    // Named after the one service the route table gives no routes, so it needs none of its own.
    const quill = defineService({
      name: 'ingestion-worker',
      schema: null,
      migrationsDir: null,
      config: Own,
      deps(ctx) {
        seen.push(ctx.config as Record<string, unknown>);
        return { ctx };
      },
      routes: () => [],
    }) as unknown as ServiceModule;
    const one = await startTestGateway({ modules: [quill], env: { QUILL_LIMIT: '7' } });
    try {
      expect(seen).toHaveLength(1);
      // Its own variable, converted by its schema; none of the gateway's own settings.
      expect(seen[0]).toMatchObject({ QUILL_LIMIT: 7, NODE_ENV: 'test' });
      expect(seen[0]).not.toHaveProperty('RATE_LIMIT_MAX');
    } finally {
      await one.close();
    }
    await expect(
      startTestGateway({ modules: [quill], env: { QUILL_LIMIT: '0' }, store: 'pglite', queue: 'memory' }),
    ).rejects.toThrow(/ingestion-worker: QUILL_LIMIT/);
  });
});
