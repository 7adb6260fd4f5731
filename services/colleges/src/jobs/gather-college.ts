import { IngestCollegeJob } from '@ct/contracts';
import { defineJob } from '@ct/jobs';
import { PermanentJobError, type JobContext } from '@ct/queue';
import { ProviderError } from '@ct/providers';
import { GATHER_MSG } from '../messages.ts';
import { placeCollege } from '../use-cases/place-college.ts';
import type { GatheredCollege } from '../use-cases/place-college.types.ts';
import { buildCollege, nothingGatheredReason } from './build-college.ts';
import { readCollegePages, screenPages } from './read-college-pages.ts';
import { knownCollege, readGovernmentData } from './read-government-data.ts';
import type { CollegeJobDeps } from './worker.ts';

/**
 * Gathers one college (`ingest-college`): government data from the College Scorecard, college facts from
 * the college's pages through the AI provider, deadlines from the Common App grid where those give none;
 * then places it (`placeCollege`: the college, the request row and the `college.ingested` event in one
 * transaction). Providers that are not configured are skipped and named in the document's `missing`
 * list; when nothing at all can be gathered the request fails with a reason a student can read.
 */
export const collegeJob = defineJob(IngestCollegeJob, async (job, deps: CollegeJobDeps) => {
  const { key } = job.data;
  const lastTry = job.attemptsMade + 1 >= job.attempts;
  // The try is counted on the row; a request no longer waiting (done, failed, removed) is not redone.
  const started = await deps.requests.start(key);
  if (!started) return { skipped: true, state: (await deps.requests.get(key))?.state ?? null };
  try {
    const gathered = await gatherCollege(deps, job.data, lastTry);
    // The steps the overlay names are the steps the job reports: reading, gathering, then saving.
    await deps.requests.stage(key, 'saving');
    await placeCollege(deps, gathered);
    const { college } = gathered;
    deps.log.info({ key, college: college.name, missing: college.missing.length }, 'college gathered');
    return { college: college.name };
  } catch (err) {
    throw await recordFailure(deps, job, err, lastTry);
  }
});

/** Steps 1 to 3: what the sources give, screened and assembled into one document. */
async function gatherCollege(
  deps: CollegeJobDeps,
  data: IngestCollegeJob,
  lastTry: boolean,
): Promise<GatheredCollege> {
  const government = await readGovernmentData(deps.scorecard, deps.colleges, data, lastTry);
  const known = await knownCollege(deps.colleges, government, data);
  let pages = await readCollegePages(deps, data, known, lastTry);
  // A name no government record confirms is kept private whole by `placeCollege`: nothing to screen.
  if (government.gov || data.scorecardId !== undefined) pages = screenPages(pages, known, data.name);
  const found = pages.facts?.value.found ? pages.facts.value : null;
  if (!government.gov && !found) {
    const sources = { scorecard: !!deps.scorecard, ai: !!deps.ai };
    throw new PermanentJobError(nothingGatheredReason(data.name, known, sources, government, pages));
  }
  const built = buildCollege(deps.localDeadlines, data.name, government, pages, data.scorecardId ?? null);
  const { college, factsGathered } = built;
  // An answer that contradicts the grid is held as one that no official page vouched for is.
  const held = [...pages.held, ...built.held];
  return { key: data.key, college, factsGathered, officialWebsite: found?.website ?? null, held };
}

/**
 * Records a failed try on the request row (which counts the tries and says whether this one is the last)
 * with a reason a student can read; gives back what to throw to the queue: a permanent error once no try
 * is left, so the queue does not retry.
 */
async function recordFailure(
  deps: CollegeJobDeps,
  job: JobContext<IngestCollegeJob>,
  err: unknown,
  lastTry: boolean,
): Promise<unknown> {
  // Handed back on shutdown: another worker runs it again; nothing to report.
  if (job.signal?.aborted) return err;
  const { key, name } = job.data;
  const permanent = err instanceof PermanentJobError || (err instanceof ProviderError && !err.retryable);
  const reason =
    err instanceof PermanentJobError
      ? err.message
      : err instanceof ProviderError
        ? GATHER_MSG.providerFailed(name, err.message)
        : GATHER_MSG.ourError(name);
  let final = permanent || lastTry;
  try {
    const r = await deps.requests.fail(key, reason, final, deps.attempts);
    final ||= r?.state === 'failed';
  } catch (reportErr) {
    deps.log.warn({ err: reportErr, key }, 'could not record a failed ingestion try');
  }
  return final && !(err instanceof PermanentJobError) ? new PermanentJobError(reason) : err;
}
