// Authorization across the whole route table, generated from ROUTES so every new route is covered the
// day it is declared: a user can never reach another user's data through a `userId`, admin routes are
// refused to non-admins on the server, and nothing but public routes answers an anonymous caller.
import { ROUTES, type RouteDef } from '@ct/contracts';
import { createVerifiedUser, gatewaySuite, type TestUser } from '@ct/testkit';
import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { beforeAll, describe, expect, it } from 'vitest';
import { sample as sampleOf, type JsonSchema } from '../hardening/lib/schema.ts';

let alice: TestUser;
let bob: TestUser;
let admin: TestUser;

const { gw } = gatewaySuite({ queue: 'memory' });
beforeAll(async () => {
  [alice, bob, admin] = await Promise.all([
    createVerifiedUser({ name: 'Alice' }),
    createVerifiedUser({ name: 'Bob' }),
    createVerifiedUser({ name: 'Ada Admin' }),
  ]);
  await gw.db.query(
    `INSERT INTO auth.staff_roles (uid, role, email, granted_by) VALUES ($1, 'admin', $2, 'test')`,
    [admin.uid, admin.email],
  );
});

type Schema = TSchema & { properties?: Record<string, unknown>; anyOf?: Schema[] };

/** True when the schema (or any variant of a union) has a `userId` property. */
function takesUserId(schema: TSchema | undefined): boolean {
  const s = schema as Schema | undefined;
  if (!s) return false;
  if (s.properties && 'userId' in s.properties) return true;
  return (s.anyOf ?? []).some(takesUserId);
}

/** Values for fields TypeBox cannot make up by itself (patterns and formats without a default). */
const HINTS: Record<string, unknown> = {
  homeState: 'ME',
  incomeBand: '48001-75000',
  draftId: '00000000-0000-4000-8000-000000000000',
  recommenderId: '00000000-0000-4000-8000-000000000001',
  who: 'Ms. Rivera',
};

/** A valid input for a schema part (the first union variant that takes a userId, if any). */
function sample(schema: TSchema | undefined): Record<string, unknown> | undefined {
  const s = schema as Schema | undefined;
  if (!s) return undefined;
  const variant = s.anyOf?.find(takesUserId) ?? s;
  try {
    return Value.Create(variant) as Record<string, unknown>;
  } catch {
    // A pattern or format TypeBox will not invent: the sweep's own sampler, with hints.
    return sampleOf(variant as JsonSchema, HINTS) as Record<string, unknown>;
  }
}

/** Calls a route with valid input, the given token and overrides for the query and body. */
function call(
  route: RouteDef,
  opts: { token?: string; query?: Record<string, unknown>; body?: Record<string, unknown> } = {},
) {
  const params = sample(route.schema.params) ?? {};
  const path = route.path.replace(/:([A-Za-z0-9_]+)/g, (_, k: string) =>
    encodeURIComponent(String(params[k] ?? 'x')),
  );
  const query = { ...sample(route.schema.querystring), ...opts.query };
  const body = route.schema.body ? { ...sample(route.schema.body), ...opts.body } : opts.body;
  return gw.api(route.method, `/api${path}`, {
    ...(opts.token ? { token: opts.token } : {}),
    query,
    ...(body !== undefined ? { body } : {}),
  });
}

const label = (r: RouteDef) => `${r.method} ${r.path}`;
const external = ROUTES.filter((r) => r.access !== 'internal');
const queryUserId = external.filter((r) => takesUserId(r.schema.querystring));
const bodyUserId = external.filter((r) => takesUserId(r.schema.body));
const adminRoutes = external.filter((r) => r.access === 'admin');
const signedInRoutes = external.filter((r) => r.access === 'user' || r.access === 'admin');

describe('the route table', () => {
  it('has routes that take a userId and admin routes to check', () => {
    // Guards the generated tests below against silently covering nothing.
    expect(queryUserId.length + bodyUserId.length).toBeGreaterThan(5);
    expect(adminRoutes.length).toBeGreaterThan(3);
  });
});

describe('a userId that is not the caller is refused with 403', () => {
  it.each(queryUserId.map((r) => [label(r), r] as const))('%s (query)', async (_l, route) => {
    const r = await call(route, { token: alice.idToken, query: { userId: bob.uid } });
    expect(r.status, JSON.stringify(r.body)).toBe(403);
    expect(r.body).toMatchObject({ success: false, code: 'FORBIDDEN' });
  });

  it.each(bodyUserId.map((r) => [label(r), r] as const))('%s (body)', async (_l, route) => {
    const r = await call(route, { token: alice.idToken, body: { userId: bob.uid } });
    expect(r.status, JSON.stringify(r.body)).toBe(403);
    expect(r.body).toMatchObject({ success: false, code: 'FORBIDDEN' });
  });

  it.each(bodyUserId.map((r) => [label(r), r] as const))(
    '%s (own userId in the query cannot vouch for another in the body)',
    async (_l, route) => {
      const r = await call(route, {
        token: alice.idToken,
        query: { userId: alice.uid },
        body: { userId: bob.uid },
      });
      expect(r.status, JSON.stringify(r.body)).toBe(403);
    },
  );

  it.each(queryUserId.map((r) => [label(r), r] as const))(
    '%s (an admin is refused too: admins read through the admin routes only)',
    async (_l, route) => {
      const r = await call(route, { token: admin.idToken, query: { userId: bob.uid } });
      expect(r.status, JSON.stringify(r.body)).toBe(403);
    },
  );
});

describe('admin routes are checked on the server', () => {
  it.each(adminRoutes.map((r) => [label(r), r] as const))(
    '%s refuses a signed-in non-admin with 403',
    async (_l, route) => {
      const r = await call(route, { token: alice.idToken, query: { userId: alice.uid } });
      expect(r.status, JSON.stringify(r.body)).toBe(403);
      expect(r.body).toMatchObject({ success: false, code: 'FORBIDDEN' });
    },
  );

  it.each(adminRoutes.map((r) => [label(r), r] as const))(
    '%s refuses an anonymous caller with 401',
    async (_l, route) => {
      const r = await call(route);
      expect(r.status, JSON.stringify(r.body)).toBe(401);
    },
  );

  it.each(adminRoutes.map((r) => [label(r), r] as const))(
    '%s lets an admin past the check',
    async (_l, route) => {
      const r = await call(route, { token: admin.idToken, query: { userId: admin.uid } });
      // The handler may still be pending (501) or reject the sample input, but never the caller.
      expect([401, 403], JSON.stringify(r.body)).not.toContain(r.status);
    },
  );
});

describe('signed-in routes refuse anonymous callers', () => {
  it.each(signedInRoutes.map((r) => [label(r), r] as const))(
    '%s answers 401 without a token',
    async (_l, route) => {
      const r = await call(route);
      expect(r.status, JSON.stringify(r.body)).toBe(401);
      expect(r.body).toMatchObject({ success: false, code: 'UNAUTHENTICATED' });
    },
  );
});
