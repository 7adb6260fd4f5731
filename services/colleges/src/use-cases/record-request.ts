import type { Queryable } from '@ct/store';
import type { StoredRequest } from '../repositories/ingestion.ts';
import type { RecordedRequest, RecordRequestDeps, RecordRequestInput } from './record-request.types.ts';

/**
 * Records (or joins) a request row with who asked, and books the AI work it starts, in the caller's
 * transaction (`requestCollege`, `enrichCollege`). Null, and nothing to enqueue, when no hour within a
 * day has room for the student's work.
 */
export async function recordRequest(
  deps: RecordRequestDeps,
  input: RecordRequestInput,
  tx: Queryable,
): Promise<RecordedRequest | null> {
  const { key, uid } = input;
  const retryFailedAfterMs = deps.ctx.config.INGESTION_RETRY_FAILED_AFTER_MS;
  const r = await deps.requests.request(key, input.name, input.scorecardId, retryFailedAfterMs, {
    requeueDone: input.requeueDone,
    q: tx,
  });
  if (uid) await deps.requests.recordRequester(key, uid, input.role(r.enqueue), tx);
  const booked = r.enqueue ? await bookAiWork(deps, key, uid, tx) : r.request;
  if (!booked) return null;
  return { request: booked, enqueue: r.enqueue, priority: await queuePriority(deps, input, tx) };
}

/**
 * Books a request's AI work against the student's share of the hourly allowance (issue 35.4). Work that
 * does not fit this hour waits for the first hour it fits (the row says until when; its job is delayed
 * until then). Null when no hour within a day has room. Without an AI provider, or for work no student
 * asked for, nothing is booked.
 */
async function bookAiWork(
  deps: RecordRequestDeps,
  key: string,
  uid: string | null,
  tx: Queryable,
): Promise<StoredRequest | null> {
  const row = await deps.requests.lock(key, tx);
  if (!row) return null;
  if (!uid || !deps.aiConfigured) return row;
  const booking = await deps.share.book(uid, key, tx);
  if (!booking) return null;
  return booking.waits ? await deps.requests.waitUntil(key, booking.hour, tx) : row;
}

/**
 * A job's queue priority: its class (a student waiting, or background), one place further back for each
 * of the student's own requests still waiting, so no student's burst delays another's first result by
 * more than one job.
 */
async function queuePriority(
  deps: RecordRequestDeps,
  { key, uid, priority }: RecordRequestInput,
  tx: Queryable,
): Promise<number> {
  return uid ? priority + (await deps.requests.pendingFor(uid, key, tx)) : priority;
}

/**
 * Serialises a student's quota checks until the transaction ends, so parallel requests cannot slip past
 * a daily quota. True when the student asked for this name before (asking again is free).
 */
export async function askedBefore(
  deps: Pick<RecordRequestDeps, 'requests'>,
  key: string,
  uid: string,
  tx: Queryable,
): Promise<boolean> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`colleges:quota:${uid}`]);
  return deps.requests.hasRequester(key, uid, tx);
}
