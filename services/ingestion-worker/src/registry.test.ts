import { IngestCollegeJob, IngestMajorJob, JOBS } from '@ct/contracts';
import { PermanentJobError } from '@ct/queue';
import { describe, expect, it } from 'vitest';
import { JOB_HANDLERS } from './app.ts';
import type { WorkerDeps } from './deps.ts';
import { majorJob } from './jobs/major.ts';
import { createRegistry, defineJob } from './registry.ts';

const deps = {} as WorkerDeps;
const job = (name: string, data: unknown) => ({ id: `${name}.x`, name, data, attemptsMade: 0, attempts: 3 });

describe('job registry', () => {
  it('has exactly one handler for every job the contracts declare', () => {
    expect(() => createRegistry(JOB_HANDLERS)).not.toThrow();
    expect(JOB_HANDLERS.map((h) => h.job.name).sort()).toEqual(JOBS.map((j) => j.name).sort());
  });

  it('refuses to start when a job has no handler', () => {
    expect(() => createRegistry([majorJob])).toThrow(
      'ingestion worker: job registry mismatch; no handler for ingest-college',
    );
  });

  it('refuses to start when a job has two handlers', () => {
    const again = defineJob(IngestMajorJob, async () => 'again');
    expect(() => createRegistry([...JOB_HANDLERS, again])).toThrow('two handlers for ingest-major');
  });

  it('refuses a handler for a job the contracts do not declare', () => {
    const stray = defineJob({ name: 'ingest-unicorn', schema: IngestCollegeJob.schema }, async () => null);
    expect(() => createRegistry([...JOB_HANDLERS, stray])).toThrow('not a declared job: ingest-unicorn');
  });

  it('dispatches by job name and fails at once on data of the wrong shape', async () => {
    const seen: unknown[] = [];
    const dispatch = createRegistry([
      defineJob(IngestCollegeJob, async (j) => seen.push(j.data.name)),
      defineJob(IngestMajorJob, async () => null),
    ]);
    await dispatch(job('ingest-college', { key: 'yale university', name: 'Yale University' }), deps);
    expect(seen).toEqual(['Yale University']);
    await expect(dispatch(job('ingest-college', { key: 5 }), deps)).rejects.toBeInstanceOf(PermanentJobError);
    await expect(dispatch(job('ingest-nothing', {}), deps)).rejects.toThrow('Unknown job "ingest-nothing"');
  });
});
