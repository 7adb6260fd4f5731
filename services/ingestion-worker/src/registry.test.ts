import { IngestCollegeJob, IngestMajorJob, INGESTION_QUEUE, JOBS } from '@ct/contracts';
import { defineJob, jobModule, type JobEntry } from '@ct/jobs';
import { collegeJob } from '@ct/colleges/jobs/gather-college';
import { majorJob } from '@ct/colleges/jobs/major';
import { PermanentJobError } from '@ct/queue';
import { describe, expect, it } from 'vitest';

const job = (name: string, data: unknown) => ({ id: `${name}.x`, name, data, attemptsMade: 0, attempts: 3 });
const build = (handlers: JobEntry<unknown>[]) =>
  jobModule({ service: 'colleges', queue: INGESTION_QUEUE, declared: JOBS, handlers, deps: {} });
const HANDLERS = [collegeJob, majorJob] as JobEntry<unknown>[];

describe('a queue job module', () => {
  it('has exactly one handler for every job the contracts declare', () => {
    expect(() => build(HANDLERS)).not.toThrow();
    expect(HANDLERS.map((h) => h.job.name).sort()).toEqual(JOBS.map((j) => j.name).sort());
  });

  it('refuses to start when a job has no handler', () => {
    expect(() => build([majorJob as JobEntry<unknown>])).toThrow(
      'ingestion queue: job registry mismatch; no handler for ingest-college',
    );
  });

  it('refuses to start when a job has two handlers', () => {
    const again = defineJob(IngestMajorJob, async () => 'again');
    expect(() => build([...HANDLERS, again])).toThrow('two handlers for ingest-major');
  });

  it('refuses a handler for a job the contracts do not declare', () => {
    const stray = defineJob({ name: 'ingest-unicorn', schema: IngestCollegeJob.schema }, async () => null);
    expect(() => build([...HANDLERS, stray])).toThrow('not a declared job: ingest-unicorn');
  });

  it('dispatches by job name and fails at once on data of the wrong shape', async () => {
    const seen: unknown[] = [];
    const m = build([
      defineJob(IngestCollegeJob, async (j) => seen.push(j.data.name)),
      defineJob(IngestMajorJob, async () => null),
    ]);
    await m.run(job('ingest-college', { key: 'yale university', name: 'Yale University' }));
    expect(seen).toEqual(['Yale University']);
    await expect(m.run(job('ingest-college', { key: 5 }))).rejects.toBeInstanceOf(PermanentJobError);
    await expect(m.run(job('ingest-nothing', {}))).rejects.toThrow('Unknown job "ingest-nothing"');
  });
});
