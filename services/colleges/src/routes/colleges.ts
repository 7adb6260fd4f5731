import {
  addCollege,
  getCollegeSuggestions,
  getIngestionStatus,
  internalCollegeStats,
  internalGetCollege,
  internalListColleges,
  LIMITS,
  MSG,
  normaliseCollegeName,
  searchCollege,
} from '@ct/contracts';
import { AppError, implement, type Implementation, type ServiceContext } from '@ct/service-kit';
import type { CollegesConfig } from '../config.ts';
import type { Ingestion } from '../ingestion.ts';
import { presentCollegeListItem, presentDoneRequest, presentRequest } from '../presenters.ts';
import { COLLEGES_MSG, TRUST_MSG } from '../messages.ts';

const notFound = (name: string) => new AppError('NOT_FOUND', TRUST_MSG.notFound(name));

/** Who is asking: the verified uid (a student), or the uid another service forwards on an internal call. */
const viewerOf = (request: { auth: { uid: string } | null }) => request.auth?.uid ?? null;

/** Search, add, status and suggestions for students; the college listings for other services. */
export function collegeRoutes(_ctx: ServiceContext<CollegesConfig>, ingestion: Ingestion): Implementation[] {
  const { colleges, requests, reviews } = ingestion;
  return [
    implement(searchCollege, async (request) => {
      const uid = viewerOf(request);
      const hit = await colleges.findVisible(request.query.name, uid);
      if (!hit) throw notFound(request.query.name);
      // A Scorecard college answers now with its official figures; its own pages are read in the background.
      await ingestion.enrichLater(hit, uid, request.id).catch((err: unknown) => {
        request.log.warn({ err }, 'could not ask for the college facts of a cached college');
      });
      return {
        success: true,
        message: MSG.collegeFound,
        data: hit.college,
        shared: hit.shared,
        enrichment: await ingestion.enrichmentOf(hit),
      };
    }),

    implement(addCollege, async (request, reply) => {
      const { status, request: r } = await ingestion.requestCollege(
        request.body.name,
        viewerOf(request),
        request.id,
      );
      reply.code(status);
      let message: string = MSG.collegeFound;
      if (status === 202) message = COLLEGES_MSG.gathering(r.name);
      else if (r.state === 'failed') message = r.failureReason ?? COLLEGES_MSG.gatheringFailed;
      return { success: true, message, data: r };
    }),

    implement(getIngestionStatus, async (request) => {
      const uid = viewerOf(request);
      const key = normaliseCollegeName(request.query.name);
      const r = key ? await requests.get(key) : null;
      // A result kept privately for review is news only to the students who asked for it.
      const hidden =
        r?.state === 'done' &&
        (await reviews.byKey(key)) !== null &&
        !(uid && (await reviews.isViewer(key, uid)));
      if (r && !hidden)
        return { success: true, message: COLLEGES_MSG.requestState(r.state), data: presentRequest(r) };
      // Nothing was requested under this name, but the college may be cached already.
      const hit = await colleges.findVisible(request.query.name, uid);
      if (hit) {
        return {
          success: true,
          message: COLLEGES_MSG.requestState('done'),
          data: presentDoneRequest(key, request.query.name.trim(), hit.college, null),
        };
      }
      throw new AppError('NOT_FOUND', COLLEGES_MSG.nobodyAsked(request.query.name));
    }),

    implement(getCollegeSuggestions, async (request) => {
      const q = request.query.query.trim();
      const n = normaliseCollegeName(q);
      const suggestions =
        q.length >= LIMITS.suggestionMinLength && n
          ? await ingestion.suggestions.suggest(n, LIMITS.suggestionMaxResults)
          : [];
      return { success: true, message: MSG.suggestionsFound, suggestions };
    }),

    // Another service asking on a student's behalf forwards the student: a college private to them is
    // found too (their list and checklist); asked with no student, shared colleges only.
    implement(internalGetCollege, async (request) => {
      const college = await colleges.findCollegeByName(request.query.name, viewerOf(request));
      if (!college) throw notFound(request.query.name);
      return { college };
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
