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
import { doneView, type Ingestion } from '../ingestion.ts';
import { publicRequest } from '../ingestion-repository.ts';

const notFound = (name: string) =>
  new AppError('NOT_FOUND', `We have no data for "${name}" yet. Use Add College to gather it.`);

/** Search, add, status and suggestions for students; the college listings for other services. */
export function collegeRoutes(_ctx: ServiceContext<unknown>, ingestion: Ingestion): Implementation[] {
  const { colleges, requests } = ingestion;
  return [
    implement(searchCollege, async (request) => {
      const hit = await colleges.findCollege(request.query.name);
      if (!hit) throw notFound(request.query.name);
      if (!hit.factsGathered && !hit.requested) {
        // Known only from the bulk import: answer now, gather its college facts in the background.
        await ingestion.gatherFactsLater(hit.college, request.id).catch((err: unknown) => {
          request.log.warn({ err }, 'could not ask for the college facts of an imported college');
        });
      }
      return { success: true, message: MSG.collegeFound, data: hit.college };
    }),

    implement(addCollege, async (request, reply) => {
      const { status, request: r } = await ingestion.requestCollege(request.body.name, request.id);
      reply.code(status);
      let message: string = MSG.collegeFound;
      if (status === 202) message = `We are gathering "${r.name}" now.`;
      else if (r.state === 'failed') message = r.failureReason ?? 'Gathering this college failed.';
      return { success: true, message, data: r };
    }),

    implement(getIngestionStatus, async (request) => {
      const key = normaliseCollegeName(request.query.name);
      const r = key ? await requests.get(key) : null;
      if (r) return { success: true, message: `Request is ${r.state}`, data: publicRequest(r) };
      // Nothing was requested under this name, but the college may be cached already.
      const hit = await colleges.findCollege(request.query.name);
      if (hit) {
        return {
          success: true,
          message: 'Request is done',
          data: doneView(key, request.query.name.trim(), hit.college, null),
        };
      }
      throw new AppError(
        'NOT_FOUND',
        `Nobody has asked for "${request.query.name}" yet. Use Add College to gather it.`,
      );
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

    implement(internalGetCollege, async (request) => {
      const college = await colleges.findCollegeByName(request.query.name);
      if (!college) throw notFound(request.query.name);
      return { college };
    }),

    implement(internalListColleges, async (request) => {
      const q = request.query;
      return colleges.listColleges({
        name: q.name,
        full: q.full === true,
        limit: q.limit ?? 50,
        offset: q.offset ?? 0,
      });
    }),

    implement(internalCollegeStats, async () => ({ colleges: await colleges.countColleges() })),
  ];
}
