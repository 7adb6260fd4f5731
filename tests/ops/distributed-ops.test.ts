// The distributed run as operators see it: every service, the worker and the gateway as separate
// processes on real Postgres and Redis. Each serves /metrics; the worker's queue depth rises while jobs
// wait and falls as they run; one request id follows a call from the gateway into the worker's job; the
// health checks of compose and k8s answer; and SIGTERM to a worker mid-job hands the job to the next one.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { INGESTION_QUEUE, type College, type IngestionRequest } from '@ct/contracts';
import {
  createVerifiedUser,
  distributedSuite,
  startScorecardFake,
  TEST_REDIS_URL,
  type ScorecardFake,
  type TestUser,
} from '@ct/testkit';
import { RoleRepository } from '@ct/auth/repositories/roles';
import { openDb } from '@ct/store';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnTs, stopProcess, waitForHttp, type RunningProcess } from '../../scripts/lib/stack.ts';
import { parseStrictJson } from './lib/strict-json.ts';
import { until } from './lib/wait.ts';
import { processSpecs, rel, ROOT } from './lib/sources.ts';

let scorecard: ScorecardFake;
let student: TestUser;
let redis: Redis;

beforeAll(async () => {
  scorecard = await startScorecardFake();
});
afterAll(() => scorecard?.close());
const { stack, database, prefix } = distributedSuite({
  label: 'ops',
  basePort: 18080,
  env: () => ({
    // Info level: the request-id test reads the processes' JSON logs.
    LOG_LEVEL: 'info',
    SCORECARD_API_URL: scorecard.url,
    SCORECARD_API_KEY: scorecard.apiKey,
    SCORECARD_REQUESTS_PER_MINUTE: '100000',
    OPENAI_API_KEY: '',
    LOCAL_DEADLINES_FILE: 'none',
    INGESTION_CONCURRENCY: '2',
    INGESTION_BACKOFF_MS: '50',
    // A worker stopped mid-job waits this long for it, then hands it back.
    SHUTDOWN_DRAIN_MS: '1500',
  }),
});
beforeAll(async () => {
  redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 1 });
  student = await createVerifiedUser({ name: 'Ops Student' });
});
afterAll(() => {
  // Jobs held at the fake finish, so that the stack stops gracefully.
  scorecard?.server.release();
  redis?.disconnect();
});

type Body<T> = { success: boolean; message: string; data: T };

const proc = (name: string) => stack.processes.find((p) => p.name === name)!;
const portOf = (name: string) => proc(name).port;

async function metrics(name: string, headers: Record<string, string> = {}): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${portOf(name)}/metrics`, {
    headers: { authorization: `Bearer ${stack.env.METRICS_TOKEN}`, ...headers },
  });
  if (!res.ok) throw new Error(`${name} /metrics answered ${res.status}`);
  return res.text();
}

/** One sample of a Prometheus text exposition, by metric name and labels (undefined when absent). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(\{([^}]*)\})?\s+(\S+)/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries(
      [...(m[3] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]),
    );
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[4]);
  }
  return undefined;
}

const depth = async (state: string) =>
  sample(await metrics('ingestion-worker'), 'college_ready_queue_jobs', { queue: INGESTION_QUEUE, state }) ??
  -1;

async function api<T>(
  method: 'GET' | 'POST',
  path: string,
  opts: { query?: Record<string, string>; body?: unknown; reqId?: string; as?: TestUser } = {},
) {
  const qs = opts.query ? `?${new URLSearchParams(opts.query)}` : '';
  const res = await fetch(`${stack.gatewayUrl}/api${path}${qs}`, {
    method,
    headers: {
      authorization: `Bearer ${(opts.as ?? student).idToken}`,
      ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(opts.reqId ? { 'x-request-id': opts.reqId } : {}),
    },
    ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as T, reqId: res.headers.get('x-request-id') };
}

const status = async (name: string) =>
  (await api<Body<IngestionRequest>>('GET', '/ingestion-status', { query: { name } })).body.data;

async function settled(name: string, timeoutMs = 60_000): Promise<IngestionRequest> {
  return until(
    async () => {
      const s = await status(name);
      return s && (s.state === 'done' || s.state === 'failed') ? s : undefined;
    },
    timeoutMs,
    `ingestion of ${name} to finish`,
  );
}

describe('metrics and health in the distributed run', () => {
  it('every line each process logs is strict JSON with each key once, naming its service', () => {
    for (const p of stack.processes) {
      const lines = p
        .output()
        .split('\n')
        .filter((l) => l.trim().startsWith('{'));
      expect(lines.length, p.name).toBeGreaterThan(0);
      for (const line of lines)
        expect((parseStrictJson(line) as { service?: string }).service, line).toBe(p.name);
    }
  });

  it('every process serves Prometheus metrics: requests, latency, errors, in-flight, process, college_ready_app_info', async () => {
    // Some traffic first, so every service has counted a request.
    for (const p of stack.processes)
      await fetch(`http://127.0.0.1:${p.port}${p.name === 'gateway' ? '/api' : ''}/healthz`);
    for (const p of stack.processes) {
      const text = await metrics(p.name);
      expect(sample(text, 'college_ready_app_info', { service: p.name }), p.name).toBe(1);
      expect(text).toContain('# TYPE college_ready_http_requests_total counter');
      expect(text).toContain('# TYPE college_ready_http_request_duration_seconds histogram');
      expect(text).toContain('# TYPE college_ready_http_request_errors_total counter');
      expect(text).toContain('# TYPE college_ready_http_requests_in_flight gauge');
      expect(text).toContain('process_resident_memory_bytes');
      expect(
        sample(text, 'college_ready_http_requests_total', { method: 'GET', status: '200' }),
        p.name,
      ).toBeGreaterThan(0);
    }
    // Nothing else is talking to the auth service: the only request in flight is the scrape itself.
    expect(sample(await metrics('auth'), 'college_ready_http_requests_in_flight')).toBe(1);
    const worker = await metrics('ingestion-worker');
    for (const m of [
      'college_ready_ingestion_job_duration_seconds',
      'college_ready_ingestion_jobs_total',
      'college_ready_ingestion_provider_failures_total',
    ])
      expect(worker).toContain(`# TYPE ${m}`);
    expect(sample(worker, 'college_ready_queue_jobs', { queue: INGESTION_QUEUE, state: 'waiting' })).toBe(0);
  });

  it('shows metrics only to the scraper with METRICS_TOKEN, whatever else a request carries', async () => {
    const tries: Array<Record<string, string>> = [
      {},
      { 'x-forwarded-for': '203.0.113.9' },
      { authorization: 'Bearer guess' },
    ];
    for (const headers of tries) {
      const res = await fetch(`${stack.gatewayUrl}/metrics`, { headers });
      expect(res.status).toBe(401);
    }
  });

  it('answers the compose health check and the k8s probe routes on every process', async () => {
    for (const p of processSpecs()) {
      const port = portOf(p.name);
      for (const path of [p.health.live, p.health.ready]) {
        expect((await fetch(`http://127.0.0.1:${port}${path}`)).status, `${p.name} ${path}`).toBe(200);
      }
      // The exact command docker-compose.yml runs in the container.
      const code = await new Promise<number | null>((resolve) => {
        const c = spawn(process.execPath, [rel('infra/healthcheck.mjs'), p.health.ready], {
          cwd: ROOT,
          env: { ...process.env, PORT: String(port) },
          stdio: 'ignore',
        });
        c.once('exit', resolve);
      });
      expect(code, `${p.name} health check`).toBe(0);
    }
  });
});

describe('the ingestion queue under load', () => {
  it('queue depth rises while jobs wait and falls to zero as the worker runs them; one request id per call reaches the worker', async () => {
    const names = [
      'Duke University',
      'Yale University',
      'Brown University',
      'Emory University',
      'Tufts University',
      'Vanderbilt University',
    ];
    const reqIds = names.map(() => `ops-${randomUUID()}`);
    // Six students, one college each: every student's first request waits at the top priority, on the
    // plain list KEDA counts (a student's further requests wait behind other students' first ones).
    const askers = await Promise.all(
      names.map((_, i) => createVerifiedUser({ name: `Ops Student ${i + 1}` })),
    );
    // A slow provider: the worker's two slots fill and the rest of the jobs wait in the queue.
    scorecard.server.hold();
    const calls = scorecard.server.calls;
    for (const [i, name] of names.entries()) {
      const added = await api<Body<IngestionRequest>>('POST', '/add-college', {
        body: { name },
        reqId: reqIds[i],
        as: askers[i],
      });
      expect(added.status, name).toBe(202);
      expect(added.reqId).toBe(reqIds[i]);
    }
    await scorecard.server.waitForCalls(calls + 2);
    const peak = await until(
      async () => {
        const [waiting, active] = [await depth('waiting'), await depth('active')];
        return waiting === names.length - 2 && active === 2 ? waiting : undefined;
      },
      20_000,
      'four jobs waiting and two running',
    );
    expect(peak).toBe(4);
    // KEDA scales on this Redis list (k8s/base/ingestion-worker.yaml): it holds exactly the waiting jobs.
    expect(await redis.llen(`${prefix}:${INGESTION_QUEUE}:wait`)).toBe(4);

    const seen: number[] = [peak];
    scorecard.server.release();
    await until(
      async () => {
        const w = await depth('waiting');
        const a = await depth('active');
        seen.push(w);
        return w === 0 && a === 0 ? true : undefined;
      },
      60_000,
      'the queue to drain',
    );
    for (const name of names) expect((await settled(name)).state, name).toBe('done');
    expect(seen[0]).toBe(4);
    expect(seen.at(-1)).toBe(0);
    expect(await redis.llen(`${prefix}:${INGESTION_QUEUE}:wait`)).toBe(0);

    const worker = await metrics('ingestion-worker');
    expect(
      sample(worker, 'college_ready_ingestion_jobs_total', { job: 'ingest-college', outcome: 'ok' }),
    ).toBeGreaterThanOrEqual(names.length);
    expect(
      sample(worker, 'college_ready_ingestion_job_duration_seconds_count', {
        job: 'ingest-college',
        outcome: 'ok',
      }),
    ).toBeGreaterThanOrEqual(names.length);
    expect(
      sample(worker, 'college_ready_ingestion_provider_request_duration_seconds_count', {
        provider: 'scorecard',
        outcome: 'ok',
      }),
    ).toBeGreaterThan(0);

    // The request id the browser's call carried is in the gateway's, the colleges service's and the
    // worker's JSON logs (the worker's as reqId of the job that call queued).
    const logged = (name: string, id: string) =>
      proc(name)
        .output()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { reqId?: string; msg?: string })
        .filter((l) => l.reqId === id);
    const id = reqIds[0]!;
    expect(logged('gateway', id).length).toBeGreaterThan(0);
    expect(logged('colleges', id).length).toBeGreaterThan(0);
    expect(logged('ingestion-worker', id).map((l) => l.msg)).toEqual(
      expect.arrayContaining(['job started', 'job done']),
    );
  }, 120_000);
});

describe('graceful shutdown of a worker', () => {
  it('SIGTERM mid-job: the worker hands the job back and exits; the next worker finishes it; nothing is lost', async () => {
    const name = 'Rice University';
    const old = proc('ingestion-worker');
    scorecard.server.hold();
    const calls = scorecard.server.calls;
    expect((await api<Body<IngestionRequest>>('POST', '/add-college', { body: { name } })).status).toBe(202);
    await scorecard.server.waitForCalls(calls + 1);
    expect(await status(name)).toMatchObject({ state: 'running' });

    const code = await stopProcess(old, 'SIGTERM', 20_000);
    expect(code, old.output().slice(-4000)).toBe(0);
    expect(old.output()).toContain('SIGTERM received: shutting down');
    expect(old.output()).toContain('job handed back to the queue on shutdown');
    // Back in the wait list with no try used, and the student's request is not marked failed.
    expect(await redis.llen(`${prefix}:${INGESTION_QUEUE}:wait`)).toBe(1);
    expect((await status(name)).state).not.toBe('failed');

    scorecard.server.release();
    const next: RunningProcess = spawnTs('services/ingestion-worker/src/server.ts', {
      ...stack.env,
      PORT: String(old.port),
    });
    next.name = 'ingestion-worker';
    // stop() in afterAll stops whatever the stack's list holds.
    stack.processes[stack.processes.indexOf(old)] = next;
    await waitForHttp(`http://127.0.0.1:${old.port}/readyz`, 60_000, next);

    const done = await settled(name);
    expect(done).toMatchObject({ state: 'done', collegeName: name });
    const rice = await api<Body<College>>('GET', '/search-college', { query: { name } });
    expect(rice.status).toBe(200);
    expect(rice.body.data.demographics.schoolCity).toBe('Houston');
    // It was the new process that finished it.
    expect(
      sample(await metrics('ingestion-worker'), 'college_ready_ingestion_jobs_total', {
        job: 'ingest-college',
        outcome: 'ok',
      }),
    ).toBe(1);
  }, 120_000);
});

describe('queue dashboard in the distributed run', () => {
  it('the gateway shows an admin every queue read from Redis, after asking the auth service for the role', async () => {
    const url = `${stack.gatewayUrl}/api/ops/queues`;
    const asStudent = await fetch(url, { headers: { authorization: `Bearer ${student.idToken}` } });
    expect(asStudent.status).toBe(403);
    const db = await openDb({ url: database.url });
    try {
      await new RoleRepository(db).grantRole(student.uid, 'admin', student.email, 'ops test');
    } finally {
      await db.close();
    }
    const res = await fetch(url, { headers: { authorization: `Bearer ${student.idToken}` } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      kind: string;
      queues: Array<{ name: string; counts: Record<string, number> }>;
    };
    expect(body.kind).toBe('bullmq');
    const ingestion = body.queues.find((q) => q.name === INGESTION_QUEUE)!;
    expect(ingestion.counts).toMatchObject({ waiting: 0, active: 0 });
    expect(ingestion.counts.completed).toBeGreaterThanOrEqual(7);
  });
});

describe('graceful shutdown of the whole stack', () => {
  it('every process stops on SIGTERM by itself (exit 0), gateway first', async () => {
    const [gateway, ...rest] = stack.processes;
    expect(gateway!.name).toBe('gateway');
    const codes: Record<string, number | null> = { gateway: await stopProcess(gateway!, 'SIGTERM', 30_000) };
    await Promise.all(
      rest.map(async (p) => {
        codes[p.name] = await stopProcess(p, 'SIGTERM', 30_000);
      }),
    );
    expect(codes).toEqual(Object.fromEntries(stack.processes.map((p) => [p.name, 0])));
    for (const p of stack.processes) expect(p.output(), p.name).toContain('SIGTERM received: shutting down');
  }, 60_000);
});
