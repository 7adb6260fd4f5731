// Issue 35, item 1: exporting one's own data cannot exhaust a service's memory. The export streams (a page
// of drafts at a time, as the client reads it) through the distributed gateway, whose processes run here
// with the pods' memory limit (--max-old-space-size=256). A legacy account far larger than today's limits
// allow (120 drafts of 20,000 characters, each with 40 versions: 98 million characters) is exported whole,
// and the instance keeps answering other students meanwhile. One export at a time per student; what one
// account can store is bounded, with clear messages at the limits.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createVerifiedUser, distributedSuite, type TestUser } from '@ct/testkit';
import { LIMITS } from '@ct/contracts';
import { openDb, type Db } from '@ct/store';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnTs, stopProcess, waitForHttp, type Stack } from '../../../scripts/lib/stack.ts';
import { UD_MSG } from './messages.ts';

const DRAFTS = 120;
const VERSIONS = 40;
const CHARS = 20_000;
/** Exports timed one after another: enough timings of the other student for a p99. */
const EXPORTS = 3;

/** The embedded run (`npm start`, here on Postgres so the test can seed it): one process, every service. */
async function startEmbedded(databaseUrl: string, port: number, env: Record<string, string>): Promise<Stack> {
  const gw = spawnTs('gateway/src/server.ts', {
    ...env,
    NODE_ENV: 'development',
    GATEWAY_MODE: 'embedded',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATABASE_URL: databaseUrl,
    RUN_WORKER: 'false',
  });
  gw.name = 'gateway';
  try {
    await waitForHttp(`http://127.0.0.1:${port}/api/healthz`, 90_000, gw);
  } catch (err) {
    await stopProcess(gw, 'SIGKILL');
    throw err;
  }
  return {
    processes: [gw],
    gatewayUrl: `http://127.0.0.1:${port}`,
    env,
    stop: async () => void (await stopProcess(gw)),
  };
}

describe.each(['distributed', 'embedded'] as const)('the %s run', (mode) => {
  const basePort = Number(process.env.TEST_EXPORT_DISTRIBUTED_PORT ?? 17300);
  const { stack, database, prefix } = distributedSuite({
    label: 'udexport',
    basePort,
    only: ['user-data'],
    env: { NODE_OPTIONS: '--max-old-space-size=256' },
    ...(mode === 'embedded' ? { start: (o) => startEmbedded(o.databaseUrl, basePort + 10, o.env) } : {}),
  });
  let db: Db;
  let big: TestUser;
  let other: TestUser;

  beforeAll(async () => {
    db = await openDb({ url: database.url, poolMax: 2 });
    [big, other] = await Promise.all([
      createVerifiedUser({ name: 'Prolific' }),
      createVerifiedUser({ name: 'Bystander' }),
    ]);
    // Written before the limits existed (straight into the table): each text differs, so nothing is shared.
    await db.query(
      `INSERT INTO user_data.essay_draft (id, user_id, prompt_key, prompt, body, word_count, created_at)
       SELECT gen_random_uuid(), $1, 'prompt ' || g, 'Prompt ' || g, repeat(md5(g::text), $3 / 32), 1,
              now() - make_interval(mins => g)
       FROM generate_series(1, $2::int) g`,
      [big.uid, DRAFTS, CHARS],
    );
    await db.query(
      `INSERT INTO user_data.essay_draft_version (id, draft_id, body, word_count, created_at)
       SELECT gen_random_uuid(), d.id, repeat(md5(d.id::text || v), $3 / 32), 1, now() - make_interval(secs => v)
       FROM user_data.essay_draft d, generate_series(1, $2::int) v WHERE d.user_id = $1`,
      [big.uid, VERSIONS, CHARS],
    );
  }, 240_000);

  afterAll(() => db?.close());

  const api = (user: TestUser, path: string, init: RequestInit = {}) =>
    fetch(`${stack.gatewayUrl}/api${path}`, {
      ...init,
      headers: { authorization: `Bearer ${user.idToken}`, 'content-type': 'application/json' },
    });

  /** A process's resident memory, now (`VmRSS`) or at its peak so far (`VmHWM`), in MiB (Linux). */
  function rssMiB(name: string, which: 'VmRSS' | 'VmHWM'): number {
    const pid = stack.processes.find((p) => p.name === name)!.child.pid!;
    const kb = new RegExp(`${which}:\\s+(\\d+) kB`).exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return Number(kb?.[1] ?? 0) / 1024;
  }
  const peakRssMiB = (name: string) => rssMiB(name, 'VmHWM');

  /** Sequential requests of another student, each timed, until `done()` (and at least `min`): their ms. */
  async function probeUntil(done: () => boolean, min = 0): Promise<number[]> {
    const latencies: number[] = [];
    while (!done() || latencies.length < min) {
      const t = performance.now();
      const r = await request(`${stack.gatewayUrl}/api/get-notes`, {
        headers: { authorization: `Bearer ${other.idToken}` },
      });
      await r.body.arrayBuffer();
      latencies.push(performance.now() - t);
      expect(r.statusCode).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return latencies;
  }

  /** The 99th percentile of some timings. */
  const p99Of = (ms: readonly number[]) => {
    const sorted = [...ms].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))]!;
  };

  /** One export downloaded by curl, as a browser would, while another student's requests are timed. */
  async function exportWhileProbing(): Promise<{ text: string; curlOut: string; latencies: number[] }> {
    let exporting = true;
    const during = probeUntil(() => !exporting);
    // Another process downloads: the test's own reading must not hold up its timings.
    const file = path.join(os.tmpdir(), `export-${prefix}.json`);
    const curl = spawn('curl', [
      '-sS',
      '-o',
      file,
      '-w',
      '%{http_code} %{content_type}',
      '-H',
      `authorization: Bearer ${big.idToken}`,
      `${stack.gatewayUrl}/api/export-my-data`,
    ]);
    let curlOut = '';
    curl.stdout.on('data', (b: Buffer) => (curlOut += b.toString()));
    await new Promise((resolve) => curl.once('exit', resolve));
    exporting = false;
    const latencies = await during;
    const text = fs.readFileSync(file, 'utf8');
    fs.rmSync(file);
    return { text, curlOut, latencies };
  }

  describe('exporting a very large account, with 256 MB of heap per process', () => {
    it('completes, and other students are answered within 100 ms (p99) meanwhile', async () => {
      // The same requests on the idle instance, before and after: what this machine takes anyway (it is
      // shared, and its load drifts).
      const before = await probeUntil(() => true, 100);
      const resident = new Map(stack.processes.map((p) => [p.name, rssMiB(p.name, 'VmRSS')]));
      // Three exports, one after another, so the p99 rests on some 300 timings, not on the worst two of 100.
      const during: number[] = [];
      let text = '';
      for (let i = 0; i < EXPORTS; i++) {
        const one = await exportWhileProbing();
        expect(one.curlOut).toMatch(/^200 application\/json/);
        during.push(...one.latencies);
        text = one.text;
      }
      const after = await probeUntil(() => true, 100);
      const idle = { p99: p99Of([...before, ...after]) };
      const [p99, n] = [p99Of(during), during.length];

      const body = JSON.parse(text) as {
        success: boolean;
        message: string;
        data: { userId: string; essayDrafts: Array<{ prompt: string; body: string; versions: unknown[] }> };
      };
      expect(body.success).toBe(true);
      expect(body.message).toBe(UD_MSG.exported);
      expect(body.data.userId).toBe(big.uid);
      expect(body.data.essayDrafts).toHaveLength(DRAFTS);
      expect(
        body.data.essayDrafts.every((d) => d.body.length === CHARS && d.versions.length === VERSIONS),
      ).toBe(true);
      expect(text.length).toBeGreaterThan(DRAFTS * (VERSIONS + 1) * CHARS);

      console.log(
        `${mode}: ${EXPORTS} exports of ${(text.length / 1e6).toFixed(0)} MB: ${n} other requests meanwhile, p99 ` +
          `${p99.toFixed(1)} ms (idle p99 ${idle.p99.toFixed(1)} ms); peak RSS ` +
          stack.processes
            .map(
              (p) =>
                `${p.name} ${peakRssMiB(p.name).toFixed(0)} MiB (${resident.get(p.name)!.toFixed(0)} before)`,
            )
            .join(', '),
      );
      expect(n).toBeGreaterThan(30);
      // Under 100 ms, beyond what the shared machine adds to the same requests on an idle instance (the
      // buffered export froze every request for up to 2.3 s).
      expect(p99).toBeLessThan(100 + idle.p99);
      // Streamed: an export adds to a process far less than its 98 million characters (~100 MiB here,
      // the heap growing towards its limit between collections), where a buffered one adds at least their
      // 196 MB as a string (it peaked at 542 MiB in user-data and 558 MiB in the gateway on this test,
      // after one export). And each process stays within its pod's memory with room to spare: user-data's
      // pod is limited to 384 MiB, the gateway's to 512 MiB; the embedded run's one process holds every
      // service in the gateway's place, from ~225 MiB before the exports.
      const limitMiB: Record<string, number> = { 'user-data': 320, gateway: 448 };
      for (const p of stack.processes) {
        expect(peakRssMiB(p.name) - resident.get(p.name)!, `${p.name}: MiB added`).toBeLessThan(192);
        expect(peakRssMiB(p.name), `${p.name}: peak MiB`).toBeLessThan(limitMiB[p.name]!);
      }
      // Both processes are still up and answering.
      expect((await api(other, '/get-notes')).status).toBe(200);
    }, 240_000);

    it('runs one export at a time per student: a second is refused while the first is being read', async () => {
      const first = await api(big, '/export-my-data');
      expect(first.status).toBe(200);
      // The first is read slowly: one chunk, then it waits (the service waits with it).
      const reader = first.body!.getReader();
      await reader.read();

      const second = await api(big, '/export-my-data');
      expect(second.status).toBe(429);
      expect(await second.json()).toEqual({
        success: false,
        message: UD_MSG.exportRunning,
        code: 'RATE_LIMITED',
      });
      // Another student's export is not held up by it.
      const theirs = await api(other, '/export-my-data');
      expect(theirs.status).toBe(200);
      expect((await theirs.json()) as unknown).toMatchObject({ success: true, data: { userId: other.uid } });

      // Once the first is abandoned, the student may export again.
      await reader.cancel();
      await expect
        .poll(async () => {
          const again = await api(big, '/export-my-data');
          await again.body?.cancel();
          return again.status;
        })
        .toBe(200);
    }, 120_000);
  });

  describe('what one account can store', () => {
    const save = (user: TestUser, body: Record<string, unknown>) =>
      api(user, '/save-essay-draft', { method: 'POST', body: JSON.stringify(body) });

    it(`holds at most ${LIMITS.draftsPerUser} drafts, and says so at the limit`, async () => {
      const student = await createVerifiedUser({ name: 'Many Drafts' });
      await db.query(
        `INSERT INTO user_data.essay_draft (id, user_id, prompt_key, prompt, body, word_count)
         SELECT gen_random_uuid(), $1, 'prompt ' || g, 'Prompt ' || g, 'Text', 1
         FROM generate_series(1, $2::int - 1) g`,
        [student.uid, LIMITS.draftsPerUser],
      );
      expect((await save(student, { prompt: 'The last one that fits?', body: 'Yes' })).status).toBe(200);
      const over = await save(student, { prompt: 'One more prompt?', body: 'No' });
      expect(over.status).toBe(409);
      expect(await over.json()).toMatchObject({
        message: `You can have at most ${LIMITS.draftsPerUser} essay drafts, so a draft for this prompt was not saved.`,
      });
      const count = await db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM user_data.essay_draft WHERE user_id = $1',
        [student.uid],
      );
      expect(count.rows[0]!.n).toBe(LIMITS.draftsPerUser);
    });

    it(`keeps the newest ${LIMITS.versionsPerDraft} versions of a draft`, async () => {
      const student = await createVerifiedUser({ name: 'Many Versions' });
      let revision = 0;
      for (let i = 0; i <= LIMITS.versionsPerDraft + 2; i++) {
        const r = await save(student, {
          prompt: 'Why us?',
          body: `Take ${i}`,
          baseRevision: revision,
          keepVersion: true,
        });
        expect(r.status).toBe(200);
        revision = ((await r.json()) as { data: { revision: number } }).data.revision;
      }
      const drafts = (await (await api(student, '/get-essay-drafts')).json()) as {
        drafts: Array<{ versions: number }>;
      };
      expect(drafts.drafts[0]!.versions).toBe(LIMITS.versionsPerDraft);
    });

    it('refuses a draft over 10,000 characters, saying how long one can be', async () => {
      const student = await createVerifiedUser({ name: 'Long Draft' });
      const r = await save(student, {
        prompt: 'Tell us',
        body: 'x'.repeat(LIMITS.draftCharsMax + 1),
      });
      expect(r.status).toBe(400);
      expect(((await r.json()) as { message: string }).message).toBe(
        'A draft can be at most 10,000 characters',
      );
    });
  });
});
