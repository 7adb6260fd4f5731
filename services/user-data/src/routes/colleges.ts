import {
  addUserCollege,
  getCollegeResourcesDemographics,
  getUserColleges,
  MSG,
  removeUserCollege,
  LIMITS,
} from '@ct/contracts';
import { AppError, implement, requireUser, type Implementation } from '@ct/service-kit';
import { buildChecklist, refreshDeadlines } from '../checklist.ts';
import { collegeKey, fetchListedCollege, requireListedCollege, type Deps } from '../deps.ts';
import type { ListedCollegeRow } from '../repositories/colleges.ts';
import { UD_MSG } from '../messages.ts';
import {
  presentDemographics,
  presentResources,
  presentUserCollege,
  presentUserColleges,
} from '../presenters.ts';

/**
 * `get-user-colleges` answers by list, serialised once: on PGlite the repository answers a student's
 * unchanged list with the same (kept) array, so its answer's bytes are made once rather than on every read
 * (serialising ten colleges was about 5 % of the embedded gateway's busy time serving the list). An answer
 * is kept only for a list the repository keeps (`keepsList`): with Postgres every read is a new array, and
 * a list read past a write is not kept either, so keeping its answer would only cost a WeakMap entry.
 */
const listAnswers = new WeakMap<readonly ListedCollegeRow[], string>();

/** The student's list of colleges, and what the dashboard shows about each. */
export function collegeRoutes(deps: Deps): Implementation[] {
  const { colleges } = deps;
  return [
    implement(getUserColleges, async (request, reply) => {
      const uid = requireUser(request);
      const list = await colleges.listCollegeNames(uid);
      let body = listAnswers.get(list);
      if (body === undefined) {
        // The route's own serializer (its response schema), as Fastify would run it on the object.
        body = reply.serialize({
          success: true,
          message: MSG.collegesFoundForUser,
          colleges: presentUserColleges(list),
        }) as string;
        if (colleges.keepsList(uid, list)) listAnswers.set(list, body);
      }
      void reply.type('application/json; charset=utf-8').send(body);
    }),

    implement(addUserCollege, async (request) => {
      const uid = requireUser(request);
      const name = request.body.collegeName.trim();
      const college = name ? await deps.fetchCollege(name, request) : null;
      if (!college) throw new AppError('NOT_FOUND', UD_MSG.collegeNotCached(name));
      const added = await colleges.addCollege(
        uid,
        {
          key: collegeKey(college.name),
          name: college.name,
          scorecardId: college.scorecardId,
          checklist: buildChecklist(college),
        },
        {
          maxColleges: LIMITS.collegesPerUser,
          keepDays: LIMITS.removedCollegeKeepDays,
        },
        // A kept checklist gets the college's current deadlines, keeping the student's ticks and tasks.
        (saved) => refreshDeadlines(saved, college.info.deadlines) ?? saved,
      );
      if (added === 'exists') throw new AppError('CONFLICT', UD_MSG.collegeAlreadyAdded(college.name));
      if (added === 'full') throw new AppError('LIMIT_REACHED', UD_MSG.tooManyColleges);
      // The write that needs the college's own pages asks for them (a read never does).
      await deps.requestCollegeFacts(college.name, request, college.scorecardId);
      return {
        success: true,
        message: added.restored ? UD_MSG.collegeRestored : MSG.collegeAdded,
        data: presentUserCollege(added.college),
        restored: added.restored,
      };
    }),

    implement(removeUserCollege, async (request) => {
      const uid = requireUser(request);
      const { collegeName } = request.body;
      if (!(await colleges.removeCollege(uid, collegeKey(collegeName))))
        throw new AppError('NOT_FOUND', UD_MSG.collegeNotInList(collegeName));
      const list = await colleges.listCollegeNames(uid);
      return { success: true, message: MSG.collegeRemoved, data: list.map(presentUserCollege) };
    }),

    implement(getCollegeResourcesDemographics, async (request) => {
      const uid = requireUser(request);
      const listed = await requireListedCollege(deps, uid, request.query.collegeName);
      const college = await fetchListedCollege(deps, listed, request);
      if (!college) throw new AppError('NOT_FOUND', UD_MSG.collegeDataGone(listed.college_name));
      return {
        success: true,
        message: MSG.resourcesAndDemographicsFound,
        resources: presentResources(college),
        demographics: presentDemographics(college),
      };
    }),
  ];
}
