import { normaliseCollegeName } from '@ct/contracts';
import { AppError } from '@ct/service-kit';
import type { Queryable } from '@ct/store';
import { PRIORITY } from '../jobs/requests.ts';
import { COLLEGES_MSG, TRUST_MSG } from '../messages.ts';
import { presentDoneRequest, presentRequest } from '../presenters.ts';
import type { CollegeHit } from '../repositories/colleges.ts';
import type { PrivateCollege } from '../repositories/reviews.ts';
import { enrichCollege } from './enrich-college.ts';
import { askedBefore, recordRequest } from './record-request.ts';
import type {
  RequestCollegeDeps,
  RequestCollegeInput,
  RequestCollegeResult,
} from './request-college.types.ts';

/**
 * A student asks for a college (`POST /api/add-college`). Found (shared, or kept privately for them):
 * 200 with a finished request, and a Scorecard college still without its facts gets them gathered in the
 * background. Otherwise the request is recorded (or joined) with who asked, and its job enqueued: 202
 * while it waits or runs. A student over the daily quota of new names, or a new name while the hourly
 * limit on AI calls is spent, gets a 429 and changes nothing.
 */
export async function requestCollege(
  deps: RequestCollegeDeps,
  input: RequestCollegeInput,
): Promise<RequestCollegeResult> {
  const key = normaliseCollegeName(input.name);
  if (!key) throw new AppError('VALIDATION_ERROR', COLLEGES_MSG.nameMissing);
  const hit = await deps.colleges.findVisible(input.name, input.uid);
  if (hit) return answerFound(deps, key, hit, input);
  // Another student asked for this name and its result is kept for review: this student sees it too.
  const kept = await deps.reviews.byKey(key);
  if (kept && input.uid) return joinKept(deps, key, kept, input.uid, input.name);
  return askForNewName(deps, key, input);
}

/** A stored college: found at once; its own pages are asked for when it still lacks them. */
async function answerFound(
  deps: RequestCollegeDeps,
  key: string,
  hit: CollegeHit,
  { name, uid, requestId }: RequestCollegeInput,
): Promise<RequestCollegeResult> {
  // The college is found either way; its enrichment not being queued must not change that.
  await enrichCollege(deps, { hit, uid, requestId }).catch((err: unknown) => {
    deps.ctx.log.warn({ err, key }, 'could not ask for the college facts of a cached college');
  });
  const existing = await deps.requests.get(key);
  const request =
    existing?.state === 'done'
      ? presentRequest(existing)
      : presentDoneRequest(key, name.trim(), hit.college, existing ? presentRequest(existing) : null);
  return { status: 200, request };
}

/** A result kept for an admin's review: the student joins its viewers and its requesters. */
async function joinKept(
  deps: RequestCollegeDeps,
  key: string,
  kept: PrivateCollege,
  uid: string,
  name: string,
): Promise<RequestCollegeResult> {
  await deps.db.transaction(async (tx) => {
    await deps.reviews.addViewers(kept.id, [uid], tx);
    await deps.requests.recordRequester(key, uid, 'joined', tx);
  });
  const existing = await deps.requests.get(key);
  return {
    status: 200,
    request: presentDoneRequest(key, name.trim(), kept.document, existing && presentRequest(existing)),
  };
}

/**
 * A name not stored: one transaction records (or joins) its request row with who asked, counts the daily
 * quota and books the AI work; then its job is enqueued, at the priority of a student waiting.
 */
async function askForNewName(
  deps: RequestCollegeDeps,
  key: string,
  { name, uid, requestId }: RequestCollegeInput,
): Promise<RequestCollegeResult> {
  const current = await deps.requests.get(key);
  const pending = current?.state === 'queued' || current?.state === 'running';
  if (!pending && deps.aiConfigured && (await deps.budget.spent())) {
    throw new AppError('RATE_LIMITED', TRUST_MSG.aiLimit);
  }
  const { request, enqueue, priority } = await deps.db.transaction(async (tx) => {
    if (uid) await checkQuota(deps, key, uid, tx);
    const recorded = await recordRequest(
      deps,
      {
        key,
        name: name.trim(),
        scorecardId: null,
        requeueDone: false,
        uid,
        role: (newRow) => (newRow ? 'new-name' : 'joined'),
        priority: PRIORITY.explicit,
      },
      tx,
    );
    // No hour within a day has room for this student: nothing of the ask is kept.
    if (!recorded) throw new AppError('RATE_LIMITED', TRUST_MSG.aiLimit);
    return recorded;
  });
  if (enqueue) await deps.work.jobs.request(deps.work.college, request, requestId, priority);
  const waiting = request.state === 'queued' || request.state === 'running';
  return { status: waiting ? 202 : 200, request: presentRequest(request) };
}

/**
 * The daily quota: a student may have `INGESTION_USER_DAILY_QUOTA` new names gathered in 24 hours.
 * Asking again for a name they asked for before is free.
 */
async function checkQuota(deps: RequestCollegeDeps, key: string, uid: string, tx: Queryable): Promise<void> {
  if (await askedBefore(deps, key, uid, tx)) return;
  const quota = deps.ctx.config.INGESTION_USER_DAILY_QUOTA;
  if ((await deps.requests.newNamesToday(uid, tx)) >= quota) {
    throw new AppError('RATE_LIMITED', TRUST_MSG.dailyQuota(quota));
  }
}
