import { JOBS, type MessageDef } from '@ct/contracts';
import { PermanentJobError, type JobContext } from '@ct/queue';
import { matches } from '@ct/providers';
import type { Static, TSchema } from 'typebox';
import type { WorkerDeps } from './deps.ts';

/** One job the worker knows how to run. */
export interface JobEntry {
  job: MessageDef;
  handle(job: JobContext<unknown>, deps: WorkerDeps): Promise<unknown>;
}

/** Pairs a job of the contracts with its handler, typed from the job's payload schema. */
export function defineJob<S extends TSchema>(
  job: MessageDef<S>,
  handle: (job: JobContext<Static<S>>, deps: WorkerDeps) => Promise<unknown>,
): JobEntry {
  return { job, handle: handle as JobEntry['handle'] };
}

/**
 * The worker's dispatcher by job name. Refuses to start when a job of the contracts has no handler or
 * two, or a handler is for a job the contracts do not declare. A job whose data does not match its
 * schema fails at once (retrying cannot fix it).
 */
export function createRegistry(entries: JobEntry[], jobs: readonly MessageDef[] = JOBS) {
  const names = entries.map((e) => e.job.name);
  const missing = jobs.filter((j) => !names.includes(j.name)).map((j) => j.name);
  const twice = names.filter((n, i) => names.indexOf(n) !== i);
  const unknown = names.filter((n) => !jobs.some((j) => j.name === n));
  if (missing.length || twice.length || unknown.length) {
    throw new Error(
      'ingestion worker: job registry mismatch' +
        (missing.length ? `; no handler for ${missing.join(', ')}` : '') +
        (twice.length ? `; two handlers for ${[...new Set(twice)].join(', ')}` : '') +
        (unknown.length ? `; not a declared job: ${unknown.join(', ')}` : ''),
    );
  }
  const byName = new Map(entries.map((e) => [e.job.name, e]));
  return async (job: JobContext<unknown>, deps: WorkerDeps): Promise<unknown> => {
    const entry = byName.get(job.name);
    if (!entry) throw new PermanentJobError(`Unknown job "${job.name}"`);
    if (!matches(entry.job.schema, job.data)) {
      throw new PermanentJobError(`Job "${job.name}" carries data of the wrong shape`);
    }
    return entry.handle(job, deps);
  };
}
