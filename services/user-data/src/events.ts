import { CollegeIngestedEvent } from '@ct/contracts';
import { PermanentJobError, type JobContext } from '@ct/queue';
import { Value } from 'typebox/value';
import { refreshDeadlines } from './checklist.ts';
import { collegeKey, type Deps } from './deps.ts';

/**
 * `college.ingested`: the college's deadlines may have changed, so every student's checklist of that
 * college gets fresh deadline items; ticks on deadlines that still exist and every task stay as they are.
 * Idempotent: a redelivered event changes nothing the second time.
 */
export function onCollegeIngested(deps: Deps) {
  return async (job: JobContext): Promise<{ refreshed: number }> => {
    if (!Value.Check(CollegeIngestedEvent.schema, job.data))
      throw new PermanentJobError(`malformed ${CollegeIngestedEvent.name} event`);
    const event = job.data;
    const refreshed = await deps.colleges.updateChecklistsOfCollege(collegeKey(event.name), (current) =>
      refreshDeadlines(current, event.deadlines),
    );
    if (refreshed) deps.ctx.log.info({ college: event.name, refreshed }, 'checklist deadlines refreshed');
    return { refreshed };
  };
}
