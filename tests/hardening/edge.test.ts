// What an outsider can send to the public listener and what it must not buy them: internal headers (even
// correctly signed with the real key) are dropped at the edge, X-Forwarded-For does not move a client to a
// fresh rate-limit bucket unless a configured proxy wrote it, and /metrics needs its own token. Then the
// start-up refusals: the Auth emulator in production, placeholder secrets, the embedded store in
// production, and a distributed gateway without its own secrets.
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { internalKey, signInternalCall } from '@ct/service-kit';
import { createVerifiedUser, gatewaySuite, startTestGateway, type TestUser } from '@ct/testkit';
import { beforeAll, describe, expect, it } from 'vitest';
import { spawnTs, type RunningProcess } from '../../scripts/lib/stack.ts';

const note = { title: `Private ${randomBytes(4).toString('hex')}`, content: 'Only mine' };

describe('internal headers from outside', () => {
  let bob: TestUser;
  const { gw } = gatewaySuite({ listen: true, queue: 'memory', env: { RUN_WORKER: 'false' } });
  beforeAll(async () => {
    bob = await createVerifiedUser({ name: 'Bob' });
    expect((await gw.api('POST', '/api/add-note', { token: bob.idToken, body: { note } })).status).toBe(200);
  });

  const bobAuth = () => ({ uid: bob.uid, email: bob.email, emailVerified: true, name: 'Bob' });
  const fromOutside = (path: string, headers: Record<string, string>) =>
    fetch(`${gw.url}${path}`, { headers }).then(async (r) => ({ status: r.status, text: await r.text() }));

  it('a correctly signed internal call is honoured in-process, so the header itself is valid', async () => {
    // The notes listing names its reader (the notes-read trail records who read whose notes).
    const notes = await gw.api<{ items: Array<{ userId: string }> }>('GET', '/api/internal/profile-notes', {
      internal: bobAuth(),
    });
    expect(notes.status).toBe(200);
    expect(notes.body.items.map((i) => i.userId)).toContain(bob.uid);
    const asBob = await gw.api<{ notes: Array<{ title: string }> }>('GET', '/api/get-notes', {
      internal: bobAuth(),
    });
    expect(asBob.body.notes.map((n) => n.title)).toEqual([note.title]);
  });

  it('the same signed headers sent to the public listener read nobody’s notes', async () => {
    const key = internalKey(gw.internalToken);
    const internalRoute = await fromOutside(
      '/api/internal/profile-notes',
      signInternalCall(key, { method: 'GET', url: '/api/internal/profile-notes', auth: null }),
    );
    expect(internalRoute.status).toBe(404);
    expect(internalRoute.text).not.toContain(note.title);

    const actingAsBob = await fromOutside(
      '/api/get-notes',
      signInternalCall(key, { method: 'GET', url: '/api/get-notes', auth: bobAuth() }),
    );
    expect(actingAsBob.status).toBe(401);
    expect(actingAsBob.text).not.toContain(note.title);
  });

  it('the old shared-token headers, with the real secret, do nothing either', async () => {
    const old = {
      'x-internal-token': gw.internalToken,
      'x-auth-uid': bob.uid,
      'x-auth-email-verified': 'true',
    };
    expect((await fromOutside('/api/internal/profile-notes', old)).status).toBe(404);
    const asBob = await fromOutside('/api/get-notes', old);
    expect(asBob.status).toBe(401);
    expect(asBob.text).not.toContain(note.title);
  });
});

describe('rate limit buckets', () => {
  const LIMIT = 3;
  const hit = (url: string, headers: Record<string, string> = {}) =>
    fetch(`${url}/api/public-config`, { headers }).then((r) => r.status);

  it('a client that writes its own X-Forwarded-For keeps one bucket (no proxy trusted by default)', async () => {
    const gw = await startTestGateway({
      listen: true,
      queue: 'memory',
      env: { RUN_WORKER: 'false', RATE_LIMIT_MAX: String(LIMIT) },
    });
    try {
      const key = internalKey(gw.internalToken);
      const statuses: number[] = [];
      for (let i = 0; i < LIMIT + 3; i++) {
        statuses.push(
          await hit(gw.url, {
            'x-forwarded-for': `198.51.100.${i + 1}`,
            // Internal calls skip the limit; from outside, this header is dropped first.
            ...signInternalCall(key, { method: 'GET', url: '/api/public-config', auth: null }),
          }),
        );
      }
      expect(statuses).toEqual([200, 200, 200, 429, 429, 429]);
    } finally {
      await gw.close();
    }
  });

  it('behind a trusted proxy, the address it saw is the key; what the client wrote before it is not', async () => {
    // The proxy here is the test itself on loopback.
    const gw = await startTestGateway({
      listen: true,
      queue: 'memory',
      env: { RUN_WORKER: 'false', RATE_LIMIT_MAX: String(LIMIT), TRUST_PROXY: '127.0.0.1' },
    });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < LIMIT + 2; i++)
        statuses.push(await hit(gw.url, { 'x-forwarded-for': `198.51.100.${i + 1}, 203.0.113.7` }));
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
      // Another client behind the same proxy has a bucket of its own.
      expect(await hit(gw.url, { 'x-forwarded-for': '203.0.113.8' })).toBe(200);
    } finally {
      await gw.close();
    }
  });
});

describe('rate limit before access checks', () => {
  const LIMIT = 3;

  it('refused answers count: 401s from a stranger, 400s and 403s from a student, all reach 429', async () => {
    const gw = await startTestGateway({
      listen: true,
      queue: 'memory',
      env: { RUN_WORKER: 'false', RATE_LIMIT_MAX: String(LIMIT) },
    });
    try {
      const send = (path: string, init: RequestInit = {}) =>
        fetch(`${gw.url}${path}`, init).then((r) => r.status);
      const stranger: number[] = [];
      for (let i = 0; i < LIMIT + 2; i++)
        stranger.push(await send('/api/get-notes', { headers: { authorization: 'Bearer not-a-token' } }));
      expect(stranger).toEqual([401, 401, 401, 429, 429]);

      const student = await createVerifiedUser();
      const auth = { authorization: `Bearer ${student.idToken}`, 'content-type': 'application/json' };
      const tries = [
        await send('/api/add-note', { method: 'POST', headers: auth, body: JSON.stringify({ note: {} }) }),
        await send(`/api/get-notes?userId=someone-else`, { headers: auth }),
        await send('/api/add-note', { method: 'POST', headers: auth, body: '{"note":' }),
        await send('/api/get-notes', { headers: auth }),
      ];
      expect(tries).toEqual([400, 403, 400, 429]);
    } finally {
      await gw.close();
    }
  });
});

describe('slow requests', () => {
  it('a body sent too slowly is cut off with 408, not held open for ever', async () => {
    const gw = await startTestGateway({
      listen: true,
      queue: 'memory',
      env: { RUN_WORKER: 'false', REQUEST_TIMEOUT_MS: '1000' },
    });
    try {
      const u = new URL(gw.url);
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = net.connect(Number(u.port), u.hostname, () => {
          // Headers promise 100 bytes; only 10 ever come.
          socket.write(
            'POST /api/add-note HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"note":{"',
          );
        });
        let got = '';
        socket.on('data', (b) => (got += b.toString()));
        socket.on('close', () => resolve(got));
        socket.on('error', reject);
      });
      expect(answer).toMatch(/^HTTP\/1\.1 408/);
    } finally {
      await gw.close();
    }
  });
});

describe('/metrics', () => {
  it('is off without METRICS_TOKEN and needs it as a bearer token otherwise, whatever the headers say', async () => {
    const token = randomBytes(32).toString('hex');
    const [off, on] = await Promise.all([
      startTestGateway({ listen: true, queue: 'memory', env: { RUN_WORKER: 'false' } }),
      startTestGateway({ listen: true, queue: 'memory', env: { RUN_WORKER: 'false', METRICS_TOKEN: token } }),
    ]);
    try {
      const scrape = (url: string, headers: Record<string, string> = {}) =>
        fetch(`${url}/metrics`, { headers }).then(async (r) => ({ status: r.status, text: await r.text() }));
      expect((await scrape(off.url)).status).toBe(404);
      expect((await scrape(off.url, { authorization: `Bearer ${token}` })).status).toBe(404);
      expect((await scrape(on.url)).status).toBe(401);
      expect((await scrape(on.url, { authorization: `Bearer ${'x'.repeat(64)}` })).status).toBe(401);
      const ok = await scrape(on.url, { authorization: `Bearer ${token}` });
      expect(ok.status).toBe(200);
      expect(ok.text).toContain('college_ready_http_requests_total');
      // A header trick opens nothing: with or without a forwarded-for, the token decides.
      expect((await scrape(on.url, { 'x-forwarded-for': '127.0.0.1' })).status).toBe(401);
    } finally {
      await Promise.all([off.close(), on.close()]);
    }
  });
});

/** Runs a process entry point with this environment and returns how it ended (it must stop by itself). */
async function startAndFail(entry: string, env: Record<string, string>) {
  const proc: RunningProcess = spawnTs(entry, { LOG_LEVEL: 'silent', PORT: '0', ...env });
  const code = await new Promise<number | null>((resolve) => {
    const t = setTimeout(() => proc.child.kill('SIGKILL'), 60_000);
    proc.child.once('exit', (c) => {
      clearTimeout(t);
      resolve(c);
    });
  });
  return { code, output: proc.output() };
}

// Each case starts real processes, which stop by themselves within startAndFail's 60 s: the test waits that
// long too (a loaded machine needs more than the default 30 s to start tsx).
describe('refused at start', { timeout: 90_000 }, () => {
  const secret = () => randomBytes(32).toString('hex');
  const production = {
    NODE_ENV: 'production',
    DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/postgres',
    REDIS_URL: 'redis://127.0.0.1:6379',
    FIREBASE_AUTH_EMULATOR_HOST: '',
  };

  it('the Auth emulator with NODE_ENV=production, by the gateway and by a service', async () => {
    const emulator = { ...production, FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099' };
    const [gateway, service] = await Promise.all([
      startAndFail('gateway/src/server.ts', { ...emulator, OPS_SESSION_SECRET: secret() }),
      startAndFail('services/auth/src/server.ts', { ...emulator, INTERNAL_TOKEN: secret() }),
    ]);
    for (const r of [gateway, service]) {
      expect(r.code).toBe(1);
      expect(r.output).toContain('FIREBASE_AUTH_EMULATOR_HOST: must be empty when NODE_ENV=production');
    }
  });

  it('placeholder secrets, the embedded store in production, a distributed gateway without its secrets', async () => {
    const [placeholder, embeddedStore, distributed] = await Promise.all([
      startAndFail('services/user-data/src/server.ts', {
        ...production,
        INTERNAL_TOKEN: 'change-me-to-a-long-random-string',
      }),
      startAndFail('gateway/src/server.ts', {
        ...production,
        DATABASE_URL: '',
        OPS_SESSION_SECRET: secret(),
      }),
      startAndFail('gateway/src/server.ts', { ...production, GATEWAY_MODE: 'distributed' }),
    ]);
    expect(placeholder.code).toBe(1);
    expect(placeholder.output).toContain('INTERNAL_TOKEN: is a placeholder, not a secret');
    expect(placeholder.output).toContain('openssl rand -hex 32');
    expect(placeholder.output).not.toContain('change-me-to-a-long-random-string');
    expect(embeddedStore.code).toBe(1);
    expect(embeddedStore.output).toContain('DATABASE_URL: is required when NODE_ENV=production');
    expect(distributed.code).toBe(1);
    expect(distributed.output).toContain('INTERNAL_TOKEN: is required in the distributed run');
    expect(distributed.output).toContain('OPS_SESSION_SECRET: is required');
  });

  it('a distributed gateway with no service URLs: a config error naming each, no stack trace', async () => {
    const r = await startAndFail('gateway/src/server.ts', {
      GATEWAY_MODE: 'distributed',
      INTERNAL_TOKEN: secret(),
      OPS_SESSION_SECRET: secret(),
    });
    expect(r.code).toBe(1);
    for (const name of ['AUTH', 'COLLEGES', 'USER_DATA', 'ESSAYS', 'ADMIN'])
      expect(r.output).toContain(`${name}_SERVICE_URL: is required in the distributed run`);
    expect(r.output).not.toMatch(/^\s+at /m);
  });
});
