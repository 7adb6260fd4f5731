import {
  CollegeIngestedEvent,
  normaliseCollegeName,
  type College,
  type IngestionRequest,
} from '@ct/contracts';
import { decideSharing, mergeEnrichmentHeld, mergeGovernment, type HeldFact } from '@ct/providers';
import { AppError } from '@ct/service-kit';
import type { Queryable } from '@ct/store';
import { ingestedEvent } from '../events.ts';
import { COLLEGES_MSG, TRUST_MSG } from '../messages.ts';
import { presentRequest } from '../presenters.ts';
import type { StoredCollege } from '../repositories/colleges.ts';
import type { StoredRequest } from '../repositories/ingestion.ts';
import type { GatheredCollege, PlaceCollegeDeps } from './place-college.types.ts';

/**
 * Places a gathered college and marks its request done in one transaction, with its `college.ingested`
 * event in the outbox of that same transaction; the relay publishes it after the commit. Idempotent: a
 * repeated call stores the same document and the event id is the same. Where it goes (ADR 0070):
 * 1. matched to a College Scorecard institution: shared (`shareMatched`);
 * 2. anything else: private whole to the students who asked, for an admin's review (`keepForReview`).
 */
export async function placeCollege(
  deps: PlaceCollegeDeps,
  gathered: GatheredCollege,
): Promise<IngestionRequest> {
  const { key, college } = gathered;
  if (!normaliseCollegeName(college.name)) {
    throw new AppError('VALIDATION_ERROR', COLLEGES_MSG.nameWithoutLetters);
  }
  const request = await deps.db.transaction(async (tx) => {
    const req = await deps.requests.lock(key, tx);
    if (!req) throw new AppError('NOT_FOUND', COLLEGES_MSG.noRequest(key));
    return (await shareMatched(deps, req, gathered, tx)) ?? (await keepForReview(deps, req, gathered, tx));
  });
  void deps.outbox.kick();
  return presentRequest(request);
}

/**
 * Matched to a College Scorecard institution (by the id the government data carries, or the one the
 * request knew): shared. What the college's pages gave enriches the stored college, whose official
 * figures stay; the facts its official pages did not vouch for (`held`) stay private to the students
 * who asked, for an admin's review. The request points at the college; its event waits in the outbox.
 * Null when no institution matches.
 */
async function shareMatched(
  deps: PlaceCollegeDeps,
  req: StoredRequest,
  { college: doc, factsGathered, held = [] }: GatheredCollege,
  tx: Queryable,
): Promise<StoredRequest | null> {
  const sid = doc.scorecardId ?? req.scorecardId;
  if (sid === null) return null;
  const stored =
    (await deps.colleges.lockByScorecardId(sid, tx)) ??
    (doc.scorecardId !== null ? await deps.colleges.lockUnmatchedByName(doc.name, tx) : null);
  if (!stored && doc.scorecardId === null) return null;
  const merged = stored ? enriched(stored, doc) : { college: doc, held: [] };
  const document = merged.college;
  const saved = await deps.colleges.upsertCollege(document, { mode: 'replace', factsGathered }, tx);
  // What the answer said against the stored official facts is held too; one held fact per kind.
  const toHold = [...new Map([...held, ...merged.held].map((f) => [f.kind, f])).values()];
  if (toHold.length) {
    const viewers = await deps.requests.requesters(req.key, tx, { sinceRequested: true });
    await deps.held.hold(saved.id, req.key, toHold, viewers, tx);
  }
  const done = await deps.requests.complete(req.key, saved.id, saved.name, tx);
  const { payload, eventId } = ingestedEvent(saved.document);
  await deps.outbox.add(tx, CollegeIngestedEvent, payload, eventId);
  return done ?? req;
}

/**
 * The stored college enriched by a gathered one, in the order of sources (its official facts outrank the
 * answer's, which is held where it contradicts them); a stored college without an id takes its
 * government data.
 */
function enriched(stored: StoredCollege, doc: College): { college: College; held: HeldFact[] } {
  const base =
    stored.document.scorecardId === null && doc.sources.demographics
      ? mergeGovernment(stored.document, doc)
      : stored.document;
  const { college, held } = mergeEnrichmentHeld(base, doc);
  return { college: { ...college, name: stored.name }, held };
}

/**
 * Anything else: private whole to the students who asked, in the admin's review list, announced to no
 * one. A name no government record confirms is never shared without an admin (issue 20): an
 * official-looking website proves nothing the model could not make up.
 */
async function keepForReview(
  deps: PlaceCollegeDeps,
  req: StoredRequest,
  { college: doc, officialWebsite: website = null }: GatheredCollege,
  tx: Queryable,
): Promise<StoredRequest> {
  const decision = decideSharing(req.name, doc.name, website);
  const viewers = await deps.requests.requesters(req.key, tx);
  const kept = await deps.reviews.save(
    {
      key: req.key,
      requestedName: req.name,
      document: doc,
      website,
      reason: decision.shared ? TRUST_MSG.noGovernmentRecord : decision.reason,
      viewers,
    },
    tx,
  );
  return (await deps.requests.complete(req.key, null, kept.name, tx)) ?? req;
}
