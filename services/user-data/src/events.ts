import { CollegeIngestedEvent, CollegeRemovedEvent } from '@ct/contracts';
import { PermanentJobError, type JobContext } from '@ct/queue';
import { Value } from 'typebox/value';
import { refreshDeadlines } from './checklist.ts';
import { collegeKey, type Deps } from './deps.ts';
import { UD_MSG } from './messages.ts';

/**
 * `college.ingested`: the college's deadlines may have changed, so every student's checklist of that
 * college gets fresh deadline items; ticks on deadlines that still exist and every task stay as they are.
 * Idempotent: a redelivered event changes nothing the second time.
 */
export function onCollegeIngested(deps: Deps) {
  return async (job: JobContext): Promise<{ refreshed: number }> => {
    if (!Value.Check(CollegeIngestedEvent.schema, job.data))
      throw new PermanentJobError(UD_MSG.malformedEvent(CollegeIngestedEvent.name));
    const event = job.data;
    const refreshed = await deps.colleges.updateChecklistsOfCollege(
      collegeKey(event.name),
      (current) => refreshDeadlines(current, event.deadlines),
      200,
      event.scorecardId ?? null,
    );
    if (refreshed) deps.ctx.log.info({ college: event.name, refreshed }, 'checklist deadlines refreshed');
    return { refreshed };
  };
}

/**
 * `college.removed`: a college merged into another takes its students' list entries with it (only the
 * students it was private to, when it was), with the other college's deadlines. A deleted college leaves
 * the entries as they are: a student's checklist is theirs. Idempotent: a redelivered event finds nothing
 * left to move.
 */
export function onCollegeRemoved(deps: Deps) {
  return async (job: JobContext): Promise<{ moved: number }> => {
    if (!Value.Check(CollegeRemovedEvent.schema, job.data))
      throw new PermanentJobError(UD_MSG.malformedEvent(CollegeRemovedEvent.name));
    const event = job.data;
    if (!event.mergedInto) return { moved: 0 };
    const into = event.mergedInto;
    const moved = await deps.colleges.moveCollege(
      collegeKey(event.name),
      { key: collegeKey(into.name), name: into.name },
      event.students,
      (current) => refreshDeadlines(current, into.deadlines),
    );
    if (moved) deps.ctx.log.info({ college: event.name, into: into.name, moved }, 'list entries moved');
    return { moved };
  };
}
