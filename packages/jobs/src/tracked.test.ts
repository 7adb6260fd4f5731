import { IngestMajorJob, INGESTION_QUEUE } from '@ct/contracts';
import { MemoryQueue, PermanentJobError } from '@ct/queue';
import { describe, expect, it } from 'vitest';
import { TrackedJobs, type TrackedRow } from './tracked.ts';

const log = { info: () => {}, warn: () => {} };

/** Request rows kept in a map, as a repository keeps them in a table. */
function rowsOf(...rows: TrackedRow[]) {
  const table = new Map(rows.map((r) => [r.key, { ...r }]));
  const given: string[] = [];
  return {
    table,
    given,
    kind: {
      job: IngestMajorJob,
      queue: INGESTION_QUEUE,
      attempts: 3,
      backoffMs: 10,
      pending: async () => [...table.values()].filter((r) => ['queued', 'running'].includes(r.state)),
      find: async (key: string) => table.get(key) ?? null,
      giveUp: async (key: string) => {
        const r = table.get(key);
        if (r && ['queued', 'running'].includes(r.state)) r.state = 'failed';
        given.push(key);
      },
      data: (r: TrackedRow) => ({ key: r.key, collegeName: 'X', major: 'Y' }),
    },
  };
}

describe('tracked jobs', () => {
  it('the sweep gives a job to each pending row without one, and ends rows whose tries are spent', async () => {
    const queue = new MemoryQueue();
    const jobs = new TrackedJobs(queue, log);
    const { kind, table } = rowsOf(
      { key: 'a', state: 'queued', attempts: 0 },
      { key: 'b', state: 'running', attempts: 1 },
      { key: 'c', state: 'running', attempts: 3 },
      { key: 'd', state: 'done', attempts: 1 },
    );
    jobs.track(kind);
    expect(await jobs.sweep()).toBe(2);
    const waiting = await queue.list(INGESTION_QUEUE, ['waiting']);
    expect(waiting.map((j) => j.id).sort()).toEqual(['ingest-major.a', 'ingest-major.b']);
    expect(table.get('c')!.state).toBe('failed');
    // a second sweep joins the live jobs: nothing new
    expect(await jobs.sweep()).toBe(0);
    expect(await queue.counts(INGESTION_QUEUE)).toMatchObject({ waiting: 2 });
    await queue.close();
  });

  it('a job gets only the tries its row has left', async () => {
    const queue = new MemoryQueue();
    const jobs = new TrackedJobs(queue, log);
    const { kind, table } = rowsOf({ key: 'a', state: 'queued', attempts: 2 });
    let tries = 0;
    const consumer = queue.process(INGESTION_QUEUE, async () => {
      tries++;
      throw new Error('provider down');
    });
    jobs.track(kind);
    const stop = await jobs.start(0);
    await until(async () => table.get('a')!.state === 'failed');
    expect(tries).toBe(1);
    await stop();
    await consumer.close();
    await queue.close();
  });

  it('a job the queue gave up on ends its row', async () => {
    const queue = new MemoryQueue();
    const jobs = new TrackedJobs(queue, log);
    const { kind, table, given } = rowsOf({ key: 'a', state: 'queued', attempts: 0 });
    jobs.track(kind);
    const stop = await jobs.start(0);
    const consumer = queue.process(INGESTION_QUEUE, async () => {
      throw new PermanentJobError('gone');
    });
    await until(async () => given.includes('a'));
    expect(table.get('a')!.state).toBe('failed');
    await stop();
    await consumer.close();
    await queue.close();
  });
});

async function until(check: () => Promise<boolean>, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}
