import type { College, IngestionRequest } from '@ct/contracts';
import { createVerifiedUser, providerFakes, TEST_REDIS_URL, type TestUser } from '@ct/testkit';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnTs, stopProcess, waitForHttp, type RunningProcess } from '../../scripts/lib/stack.ts';
import { collegesSuite, eventually } from './colleges-helpers.ts';

type Body<T> = { success: boolean; message: string; data: T };
const INTERNAL_TOKEN = 'test-internal-token-worker-crash';

let student: TestUser;
const workers: RunningProcess[] = [];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** A separate worker process, as in the distributed run, reporting to the test gateway over HTTP. */
async function startWorker(): Promise<RunningProcess> {
  const port = await freePort();
  const w = spawnTs('services/ingestion-worker/src/server.ts', {
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    PORT: String(port),
    DATABASE_URL: gw.database!.url,
    REDIS_URL: TEST_REDIS_URL,
    QUEUE_PREFIX: gw.prefix,
    // A crashed worker's job is taken over once its lock expires: keep that short for the test.
    QUEUE_LOCK_MS: '1500',
    INTERNAL_TOKEN,
    COLLEGES_SERVICE_URL: gw.internalUrl,
    SCORECARD_API_URL: scorecard.url,
    SCORECARD_API_KEY: scorecard.apiKey,
    OPENAI_API_KEY: '',
    LOCAL_DEADLINES_FILE: 'none',
  });
  workers.push(w);
  await waitForHttp(`http://127.0.0.1:${port}/healthz`, 60_000, w);
  return w;
}

const { scorecard } = providerFakes();
const gw = collegesSuite(
  () => ({
    SCORECARD_API_URL: scorecard.url,
    SCORECARD_API_KEY: scorecard.apiKey,
    INGESTION_BACKOFF_MS: '50',
  }),
  { listen: true, env: { INTERNAL_TOKEN, RUN_WORKER: 'false' } },
);
beforeAll(async () => {
  student = await createVerifiedUser({ name: 'Student' });
});
afterAll(() => Promise.all(workers.map((w) => stopProcess(w, 'SIGKILL', 1000))));

describe('a worker killed mid-job', () => {
  it('leaves the request to the next worker, which finishes it', async () => {
    const status = async () =>
      (
        await gw.api<Body<IngestionRequest>>('GET', '/api/ingestion-status', {
          token: student.idToken,
          query: { name: 'Duke University' },
        })
      ).body.data;

    const first = await startWorker();
    // The Scorecard holds its answer, so the job is caught in the middle of gathering.
    scorecard.server.hold();
    const before = scorecard.server.calls;
    const added = await gw.api<Body<IngestionRequest>>('POST', '/api/add-college', {
      token: student.idToken,
      body: { name: 'Duke University' },
    });
    expect(added.status).toBe(202);
    await scorecard.server.waitForCalls(before + 1);
    expect(await status()).toMatchObject({ state: 'running', stage: 'government-data', attempts: 1 });

    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));
    scorecard.server.release();

    await startWorker();
    const done = await eventually(
      async () => {
        const s = await status();
        return s?.state === 'done' || s?.state === 'failed' ? s : undefined;
      },
      60_000,
      'the second worker to finish the request',
    );
    expect(done).toMatchObject({ state: 'done', collegeName: 'Duke University', attempts: 2 });
    const duke = await gw.api<Body<College>>('GET', '/api/search-college', {
      token: student.idToken,
      query: { name: 'Duke University' },
    });
    expect(duke.status).toBe(200);
    expect(duke.body.data.demographics.schoolCity).toBe('Durham');
  }, 120_000);
});
