import type { MessageDef } from '@ct/contracts';
import { PermanentJobError, type JobContext } from '@ct/queue';
import type { Static, TSchema } from 'typebox';
import { Value } from 'typebox/value';

/** One job a service knows how to run, with what its handler uses (`D`: the service's repositories). */
export interface JobEntry<D> {
  job: MessageDef;
  handle(job: JobContext<unknown>, deps: D): Promise<unknown>;
}

/** Pairs a job of the contracts with its handler, typed from the job's payload schema. */
export function defineJob<S extends TSchema, D>(
  job: MessageDef<S>,
  handle: (job: JobContext<Static<S>>, deps: D) => Promise<unknown>,
): JobEntry<D> {
  return { job, handle: handle as JobEntry<D>['handle'] };
}

/**
 * One queue's work as the service that owns its tables provides it: the handlers, bound to that
 * service's repositories. The ingestion worker consumes each module's queue and calls `run`.
 */
export interface JobModule {
  /** The owning service, for logs */
  service: string;
  queue: string;
  /** Runs one job (checked against its schema) with the module's own repositories */
  run(job: JobContext<unknown>): Promise<unknown>;
}

/**
 * Builds a queue's job module from its handlers. Refuses to start when a job the contracts declare for
 * the queue has no handler or two, or a handler is for a job the contracts do not declare. A job whose
 * data does not match its schema fails at once (retrying cannot fix it).
 */
export function jobModule<D>(opts: {
  service: string;
  queue: string;
  /** The jobs the contracts declare for this queue */
  declared: readonly MessageDef[];
  handlers: JobEntry<D>[];
  deps: D;
}): JobModule {
  const { handlers: entries, declared } = opts;
  const names = entries.map((e) => e.job.name);
  const missing = declared.filter((j) => !names.includes(j.name)).map((j) => j.name);
  const twice = names.filter((n, i) => names.indexOf(n) !== i);
  const unknown = names.filter((n) => !declared.some((j) => j.name === n));
  if (missing.length || twice.length || unknown.length) {
    throw new Error(
      `${opts.queue} queue: job registry mismatch` +
        (missing.length ? `; no handler for ${missing.join(', ')}` : '') +
        (twice.length ? `; two handlers for ${[...new Set(twice)].join(', ')}` : '') +
        (unknown.length ? `; not a declared job: ${unknown.join(', ')}` : ''),
    );
  }
  const byName = new Map(entries.map((e) => [e.job.name, e]));
  return {
    service: opts.service,
    queue: opts.queue,
    async run(job) {
      const entry = byName.get(job.name);
      if (!entry) throw new PermanentJobError(`Unknown job "${job.name}"`);
      if (!Value.Check(entry.job.schema, job.data)) {
        throw new PermanentJobError(`Job "${job.name}" carries data of the wrong shape`);
      }
      return entry.handle(job, opts.deps);
    },
  };
}
