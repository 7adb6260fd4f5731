import { normaliseCollegeName, type Enrichment, type IngestionRequest } from '@ct/contracts';
import { AppError } from '@ct/service-kit';
import { COLLEGES_MSG, TRUST_MSG } from '../messages.ts';
import { presentDoneRequest, presentRequest } from '../presenters.ts';
import type { CollegeHit } from '../repositories/colleges.ts';
import type { EnrichmentStatusDeps, RequestStatusDeps, RequestStatusInput } from './college-status.types.ts';

/**
 * A shared College Scorecard college whose facts from its own pages are not in yet: the only kind an
 * enrichment is asked for, or watched.
 */
export const lacksOwnFacts = (hit: CollegeHit): boolean =>
  hit.shared && !hit.factsGathered && hit.college.scorecardId !== null;

/** Where a found college's facts from its own pages stand: the status line of its card. */
export async function enrichmentStatus(deps: EnrichmentStatusDeps, hit: CollegeHit): Promise<Enrichment> {
  const done: Enrichment = { state: 'done', message: null };
  if (!lacksOwnFacts(hit)) return done;
  const r = await deps.requests.get(normaliseCollegeName(hit.college.name));
  if (r?.state === 'queued' && r.waitingUntil)
    return { state: 'paused', message: TRUST_MSG.waitingForHour(r.waitingUntil) };
  if (r?.state === 'queued' || r?.state === 'running')
    return { state: 'gathering', message: TRUST_MSG.gathering };
  if (!deps.aiConfigured) return { state: 'needs-key', message: TRUST_MSG.needsAiKey };
  if (r?.state === 'failed') return { state: 'failed', message: r.failureReason };
  if (await deps.budget.spent()) return { state: 'paused', message: TRUST_MSG.paused };
  // Never gathered, nobody asked yet: a read says so; adding the college asks.
  if (r?.state !== 'done') return { state: 'not-asked', message: TRUST_MSG.notAsked };
  return done;
}

/**
 * Where a student's request for a name stands (`GET /api/ingestion-status`, polled behind the loading
 * overlay): its row, or a finished request when the college is stored without one. 404 when nobody asked.
 */
export async function requestStatus(
  deps: RequestStatusDeps,
  { name, uid }: RequestStatusInput,
): Promise<IngestionRequest> {
  const key = normaliseCollegeName(name);
  const r = key ? await deps.requests.get(key) : null;
  // A result kept privately for review is news only to the students who asked for it.
  const hidden =
    r?.state === 'done' &&
    (await deps.reviews.byKey(key)) !== null &&
    !(uid && (await deps.reviews.isViewer(key, uid)));
  if (r && !hidden) return presentRequest(r);
  // Nothing was requested under this name, but the college may be cached already.
  const hit = await deps.colleges.findVisible(name, uid);
  if (hit) return presentDoneRequest(key, name.trim(), hit.college, null);
  throw new AppError('NOT_FOUND', COLLEGES_MSG.nobodyAsked(name));
}
