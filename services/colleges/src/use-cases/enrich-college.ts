import { normaliseCollegeName } from '@ct/contracts';
import type { Queryable } from '@ct/store';
import { PRIORITY } from '../jobs/requests.ts';
import { lacksOwnFacts } from './college-status.ts';
import type { EnrichCollegeDeps, EnrichCollegeInput } from './enrich-college.types.ts';
import { askedBefore, recordRequest } from './record-request.ts';
import type { RecordedRequest } from './record-request.types.ts';

/** No hour within a day has room for a student's background work: the request is undone, nothing queued. */
class NoRoom extends Error {}

/**
 * A student adds a Scorecard college whose facts from its own pages were never gathered, to a list
 * (`POST /internal/request-college-facts`, from user-data) or by name (`requestCollege`): that
 * enrichment is queued, in the background, when an AI provider is configured and the hourly limit allows.
 * The page answers at once with the official figures; the card shows the enrichment's progress
 * (`enrichmentStatus`). Past the student's daily quota of enrichments, or with no hour within a day that
 * has room for them, nothing is queued.
 */
export async function enrichCollege(deps: EnrichCollegeDeps, input: EnrichCollegeInput): Promise<void> {
  const { hit } = input;
  if (!lacksOwnFacts(hit) || !deps.aiConfigured) return;
  if (await deps.budget.spent()) return;
  const asked = await deps.db
    .transaction((tx) => recordEnrichment(deps, input, tx))
    .catch((err: unknown) => {
      if (err instanceof NoRoom) return null;
      throw err;
    });
  if (asked?.enqueue) {
    await deps.work.jobs.request(deps.work.college, asked.request, input.requestId, asked.priority);
  }
}

/**
 * The enrichment's request row, with the student among its requesters and its AI work booked, at the
 * priority of background work. Null (nothing queued) past the student's daily quota of enrichments;
 * `NoRoom` when no hour within a day has room for them (the card then says the lookups are paused).
 */
async function recordEnrichment(
  deps: EnrichCollegeDeps,
  { hit: { college }, uid }: EnrichCollegeInput,
  tx: Queryable,
): Promise<RecordedRequest | null> {
  const key = normaliseCollegeName(college.name);
  // Enrichment is AI work too: past a student's daily quota of it, nothing more is queued for them.
  if (uid && !(await withinEnrichmentQuota(deps, key, uid, tx))) return null;
  const recorded = await recordRequest(
    deps,
    {
      key,
      name: college.name,
      scorecardId: college.scorecardId,
      requeueDone: true,
      uid,
      role: () => 'enrichment',
      priority: PRIORITY.background,
    },
    tx,
  );
  if (!recorded) throw new NoRoom();
  return recorded;
}

/** Whether a student may have one more college enriched today (asking again for the same one is free). */
async function withinEnrichmentQuota(
  deps: EnrichCollegeDeps,
  key: string,
  uid: string,
  tx: Queryable,
): Promise<boolean> {
  if (await askedBefore(deps, key, uid, tx)) return true;
  return (await deps.requests.enrichmentsToday(uid, tx)) < deps.ctx.config.INGESTION_USER_DAILY_ENRICHMENTS;
}
