import { createVerifiedUser, distributedSuite } from '@ct/testkit';
import { internalKey, signInternalCall } from '@ct/service-kit';
import { describe, expect, it } from 'vitest';

const { stack } = distributedSuite({
  label: 'dist',
  basePort: Number(process.env.TEST_DISTRIBUTED_PORT ?? 17080),
});

describe('distributed run: every service its own process, real Postgres and Redis', () => {
  it('runs one process per service plus the gateway', () => {
    expect(stack.processes.map((p) => p.name).sort()).toEqual(
      ['admin', 'auth', 'colleges', 'essays', 'gateway', 'ingestion-worker', 'user-data'].sort(),
    );
    expect(new Set(stack.processes.map((p) => p.child.pid)).size).toBe(7);
  });

  it('is ready through the gateway, which checks every service', async () => {
    const res = await fetch(`${stack.gatewayUrl}/api/readyz`);
    const body = (await res.json()) as { checks: Record<string, string> };
    expect(res.status).toBe(200);
    expect(body.checks).toMatchObject({
      auth: 'ok',
      colleges: 'ok',
      'user-data': 'ok',
      essays: 'ok',
      admin: 'ok',
    });
  });

  it('proxies an authenticated call to the owning service and guards it at the edge', async () => {
    const [alice, bob] = await Promise.all([createVerifiedUser(), createVerifiedUser()]);
    const call = (userId: string) =>
      fetch(`${stack.gatewayUrl}/api/get-staff-roles?userId=${userId}`, {
        headers: { authorization: `Bearer ${alice.idToken}` },
      });
    const own = await call(alice.uid);
    expect(own.status).toBe(200);
    expect(await own.json()).toMatchObject({ message: 'No staff role found for user', role: null });
    expect((await call(bob.uid)).status).toBe(403);
    expect((await fetch(`${stack.gatewayUrl}/api/get-staff-roles`)).status).toBe(401);
  });

  it('keeps internal routes closed on every service without a signed internal call', async () => {
    const auth = stack.processes.find((p) => p.name === 'auth')!;
    const url = `http://127.0.0.1:${auth.port}/api/internal/staff`;
    expect((await fetch(url)).status).toBe(404);
    // The shared secret sent as is (the old scheme) opens nothing, even the real one.
    const old = { 'x-internal-token': stack.env.INTERNAL_TOKEN!, 'x-auth-uid': 'someone' };
    expect((await fetch(url, { headers: old })).status).toBe(404);
    const key = internalKey(stack.env.INTERNAL_TOKEN!);
    const signed = signInternalCall(key, { method: 'GET', url: '/api/internal/staff', auth: null });
    expect((await fetch(url, { headers: signed })).status).toBe(200);
    // A signature for another route is no key to this one.
    const other = signInternalCall(key, { method: 'GET', url: '/api/internal/staff-role/x', auth: null });
    expect((await fetch(url, { headers: other })).status).toBe(404);
  });

  it('the gateway drops internal headers that come from outside, even correctly signed ones', async () => {
    const victim = await createVerifiedUser();
    const key = internalKey(stack.env.INTERNAL_TOKEN!);
    const auth = { uid: victim.uid, email: victim.email, emailVerified: true, name: null };
    const path = `/api/get-staff-roles?userId=${victim.uid}`;
    const res = await fetch(`${stack.gatewayUrl}${path}`, {
      headers: signInternalCall(key, { method: 'GET', url: path, auth }),
    });
    expect(res.status).toBe(401);
  });
});
