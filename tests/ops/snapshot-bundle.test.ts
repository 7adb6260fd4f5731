// The distributed run loads the shipped College Scorecard snapshot too: the colleges service's image bundle
// (dist/server.js, with its `data` folder beside it as infra/Dockerfile stages it) started as two replicas
// on one fresh Postgres loads it once, under its advisory lock, and both serve.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { clearRedisPrefix, freshDatabase, TEST_REDIS_URL, uniquePrefix } from '@ct/testkit';
import { randomBytes } from 'node:crypto';
import { internalKey, signInternalCall } from '@ct/service-kit';
import { openDb } from '@ct/store';
import { describe, expect, it } from 'vitest';
import { stopProcess, waitForHttp, type RunningProcess } from '../../scripts/lib/stack.ts';
import { rel } from './lib/sources.ts';

const base = Number(process.env.TEST_DISTRIBUTED_PORT ?? 17190) + 7;

describe('the colleges service image', () => {
  it('stages the snapshot next to its bundle', () => {
    const dockerfile = fs.readFileSync(rel('infra/Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(
      /if \[ -d "\$\{WORKSPACE\}\/data" \]; then cp -r "\$\{WORKSPACE\}\/data" "\/out\/\$\{WORKSPACE\}\/"; fi/,
    );
    expect(fs.statSync(rel('services/colleges/data/scorecard-snapshot.json.gz')).size).toBeGreaterThan(
      100_000,
    );
  });

  it('loads the snapshot once when two replicas start together, and both serve', async () => {
    const build = spawnSync('npm', ['run', 'build', '-w', 'services/colleges', '--silent'], {
      cwd: rel('.'),
      encoding: 'utf8',
    });
    expect(build.status, build.stderr).toBe(0);
    const bundle = rel('services/colleges/dist/server.js');
    const db = await freshDatabase('snapshot_bundle');
    const prefix = uniquePrefix('snapbundle');
    const token = randomBytes(24).toString('hex');
    const replicas: RunningProcess[] = [0, 1].map((i) => {
      const port = base + i;
      const child = spawn(process.execPath, [bundle], {
        cwd: rel('services/colleges'),
        env: {
          PATH: process.env.PATH,
          NODE_ENV: 'production',
          HOST: '127.0.0.1',
          PORT: String(port),
          DATABASE_URL: db.url,
          REDIS_URL: TEST_REDIS_URL,
          QUEUE_PREFIX: prefix,
          INTERNAL_TOKEN: token,
          LOG_LEVEL: 'info',
          LOAD_SNAPSHOT: 'true',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (b: Buffer) => (out += b.toString()));
      child.stderr.on('data', (b: Buffer) => (out += b.toString()));
      return { name: `colleges replica ${i}`, port, child, output: () => out };
    });
    const store = await openDb({ url: db.url });
    try {
      for (const r of replicas) await waitForHttp(`http://127.0.0.1:${r.port}/readyz`, 90_000, r);
      await expect
        .poll(
          async () =>
            (await store.query<{ n: number }>('SELECT count(*)::int AS n FROM colleges.college')).rows[0]!.n,
          { timeout: 120_000, interval: 500 },
        )
        .toBe(6543);
      const loads = await store.query<{ kind: string; colleges: number }>(
        'SELECT kind, colleges FROM colleges.snapshot_load',
      );
      expect(loads.rows).toEqual([{ kind: 'snapshot', colleges: 6543 }]);
      expect(replicas.filter((r) => r.output().includes('College data loaded: 6,543 colleges'))).toHaveLength(
        1,
      );
      // Both answer from the loaded data (the grid facts came inside the bundle).
      for (const r of replicas) {
        const path = '/api/internal/colleges?name=harvard%20university&limit=1';
        const res = await fetch(`http://127.0.0.1:${r.port}${path}`, {
          headers: signInternalCall(internalKey(token), { method: 'GET', url: path, auth: null }),
        });
        expect(res.status).toBe(200);
        const body = (await res.json()) as { total: number; items: Array<{ name: string }> };
        expect(body.items.map((c) => c.name)).toContain('Harvard University');
      }
      const harvard = await store.query<{ doc: { info: { requirements: { SAT_ACT: string } } } }>(
        `SELECT document AS doc FROM colleges.college WHERE scorecard_id = 166027`,
      );
      expect(harvard.rows[0]!.doc.info.requirements.SAT_ACT).toBe('Required');
    } finally {
      for (const r of replicas) await stopProcess(r, 'SIGKILL');
      await store.close();
      await db.drop();
      await clearRedisPrefix(prefix);
    }
  }, 240_000);
});
