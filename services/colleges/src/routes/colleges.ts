import {
  addCollege,
  getCollegeSuggestions,
  getIngestionStatus,
  internalCollegeStats,
  getColleges,
  internalGetCollege,
  internalRequestCollegeFacts,
  internalListColleges,
  internalResolveCollege,
  LIMITS,
  MSG,
  normaliseCollegeName,
  searchCollege,
  type UnverifiedFact,
} from '@ct/contracts';
import { AppError, implement, type Implementation } from '@ct/service-kit';
import type { CollegesDeps } from '../deps.ts';
import { presentCollegeListItem } from '../presenters.ts';
import { COLLEGES_MSG, TRUST_MSG } from '../messages.ts';
import { unverifiedView, type HeldFactRepository } from '../repositories/held-facts.ts';
import { enrichmentStatus, lacksOwnFacts, requestStatus } from '../use-cases/college-status.ts';
import { enrichCollege } from '../use-cases/enrich-college.ts';
import { requestCollege } from '../use-cases/request-college.ts';

const notFound = (name: string) => new AppError('NOT_FOUND', TRUST_MSG.notFound(name));

/** Who is asking: the verified uid (a student), or the uid another service forwards on an internal call. */
const viewerOf = (request: { auth: { uid: string } | null }) => request.auth?.uid ?? null;

/** Held facts a student sees on a shared college's card, when there are any. */
async function unverifiedOfRepo(
  held: HeldFactRepository,
  collegeId: number,
  uid: string,
): Promise<{ unverified?: UnverifiedFact[] }> {
  const facts = await held.forViewer(collegeId, uid);
  return facts.length ? { unverified: facts.map(unverifiedView) } : {};
}

/** Search, add, status and suggestions for students; the college listings for other services. */
export function collegeRoutes(deps: CollegesDeps): Implementation[] {
  const { colleges, held } = deps;
  const unverifiedOf = (collegeId: number, uid: string) => unverifiedOfRepo(held, collegeId, uid);

  /**
   * Suggestions for a normalised text, the college a student most likely means first (names, aliases and
   * curated short names: see suggestion-rank.ts).
   */
  const suggest = (n: string, limit: number) => deps.suggestions.suggest(n, limit);

  /** Not found: the closest listed college, when one is close enough to be what was meant. */
  async function notFoundFor(name: string): Promise<AppError> {
    const n = normaliseCollegeName(name);
    const [close] = n.length >= LIMITS.suggestionMinLength ? await suggest(n, 1) : [];
    return close ? new AppError('NOT_FOUND', TRUST_MSG.didYouMean(name, close)) : notFound(name);
  }

  return [
    implement(searchCollege, async (request) => {
      const uid = viewerOf(request);
      let hit = await colleges.findVisible(request.query.name, uid);
      if (!hit) throw await notFoundFor(request.query.name);
      // A read only reads: a Scorecard college answers with its official figures, and the card says whether
      // its own pages were read. Adding it (a write) asks for them.
      const enrichment = await enrichmentStatus(deps, hit);
      // The request row is read after the college: a job that placed the facts in between shows a finished
      // request beside the college as it was before, and the card, told "done", would never show the facts.
      // The college is read again then (the job writes both in one transaction).
      if (enrichment.state === 'done' && lacksOwnFacts(hit))
        hit = (await colleges.findVisible(request.query.name, uid)) ?? hit;
      return {
        success: true,
        message: MSG.collegeFound,
        data: hit.college,
        shared: hit.shared,
        enrichment,
        // What an AI answer said that no official page vouched for: only the students it was gathered for.
        ...(hit.shared && uid ? await unverifiedOf(hit.id, uid) : {}),
      };
    }),

    implement(getColleges, async (request) => {
      const uid = viewerOf(request);
      const names = [...new Set(request.query.names.split('\n').map((n) => n.trim()))].filter(Boolean);
      if (names.length > LIMITS.collegesPerBatchRead)
        throw new AppError('VALIDATION_ERROR', COLLEGES_MSG.tooManyNames);
      const found = await Promise.all(
        names.map(async (name) => ({
          name,
          college: (await colleges.findVisible(name, uid))?.college ?? null,
        })),
      );
      return { success: true, message: COLLEGES_MSG.collegesFound, colleges: found };
    }),

    implement(internalRequestCollegeFacts, async (request) => {
      const uid = viewerOf(request);
      const { name, scorecardId } = request.body;
      // By the UNITID the list entry points at when it has one (its stored name may be a twin's).
      const byId = scorecardId !== undefined ? await colleges.getByScorecardId(scorecardId) : null;
      const hit = await colleges.findVisible(byId?.name ?? name, uid);
      if (!hit) throw notFound(name);
      await enrichCollege(deps, { hit, uid, requestId: request.id });
      return { enrichment: await enrichmentStatus(deps, hit) };
    }),

    implement(addCollege, async (request, reply) => {
      const { status, request: r } = await requestCollege(deps, {
        name: request.body.name,
        uid: viewerOf(request),
        requestId: request.id,
      });
      reply.code(status);
      let message: string = MSG.collegeFound;
      if (status === 202 && r.waitingUntil) message = COLLEGES_MSG.waitingForHour(r.name, r.waitingUntil);
      else if (status === 202) message = COLLEGES_MSG.gathering(r.name);
      else if (r.state === 'failed') message = r.failureReason ?? COLLEGES_MSG.gatheringFailed;
      return { success: true, message, data: r };
    }),

    implement(getIngestionStatus, async (request) => {
      const data = await requestStatus(deps, { name: request.query.name, uid: viewerOf(request) });
      return { success: true, message: COLLEGES_MSG.requestState(data.state), data };
    }),

    implement(getCollegeSuggestions, async (request) => {
      const q = request.query.query.trim();
      const n = normaliseCollegeName(q);
      const suggestions =
        q.length >= LIMITS.suggestionMinLength && n ? await suggest(n, LIMITS.suggestionMaxResults) : [];
      return { success: true, message: MSG.suggestionsFound, suggestions };
    }),

    // Another service asking on a student's behalf forwards the student: a college private to them is
    // found too (their list and checklist); asked with no student, shared colleges only.
    // A list entry names its institution by UNITID: twins of one name never swap, whatever names change.
    implement(internalGetCollege, async (request) => {
      const { scorecardId } = request.query;
      const college =
        (scorecardId !== undefined ? await colleges.getByScorecardId(scorecardId) : null) ??
        (await colleges.findCollegeByName(request.query.name, viewerOf(request)));
      if (!college) throw notFound(request.query.name);
      return { college };
    }),

    // The one name resolver: essays and user-data ask here what a typed name means.
    implement(internalResolveCollege, async (request) => {
      const hit = await colleges.findVisible(request.query.name, viewerOf(request));
      if (!hit) throw notFound(request.query.name);
      return { name: hit.college.name, scorecardId: hit.college.scorecardId, shared: hit.shared };
    }),

    implement(internalListColleges, async (request) => {
      const q = request.query;
      const page = await colleges.listColleges({
        name: q.name,
        full: q.full === true,
        limit: q.limit ?? 50,
        offset: q.offset ?? 0,
      });
      return { total: page.total, items: page.rows.map(presentCollegeListItem) };
    }),

    implement(internalCollegeStats, async () => ({ colleges: await colleges.countColleges() })),
  ];
}
