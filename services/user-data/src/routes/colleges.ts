import {
  addUserCollege,
  getCollegeResourcesDemographics,
  getUserColleges,
  MSG,
  removeUserCollege,
} from '@ct/contracts';
import { AppError, implement, requireUser, type Implementation } from '@ct/service-kit';
import { buildChecklist } from '../checklist.ts';
import { collegeKey, requireListedCollege, type Deps } from '../deps.ts';
import { UD_MSG, USER_DATA_LIMITS } from '../messages.ts';
import { toUserCollege } from '../repositories/colleges.ts';

/** The student's list of colleges, and what the dashboard shows about each. */
export function collegeRoutes(deps: Deps): Implementation[] {
  const { colleges } = deps;
  return [
    implement(getUserColleges, async (request) => {
      const uid = requireUser(request);
      const list = await colleges.listCollegeNames(uid);
      return { success: true, message: MSG.collegesFoundForUser, colleges: list };
    }),

    implement(addUserCollege, async (request) => {
      const uid = requireUser(request);
      const name = request.body.collegeName.trim();
      const college = name ? await deps.fetchCollege(name, request.auth) : null;
      if (!college) throw new AppError('NOT_FOUND', UD_MSG.collegeNotCached(name));
      const added = await colleges.addCollege(
        uid,
        { key: collegeKey(college.name), name: college.name, checklist: buildChecklist(college) },
        USER_DATA_LIMITS.collegesPerUser,
      );
      if (added === 'exists') throw new AppError('CONFLICT', UD_MSG.collegeAlreadyAdded(college.name));
      if (added === 'full') throw new AppError('LIMIT_REACHED', UD_MSG.tooManyColleges);
      return { success: true, message: MSG.collegeAdded, data: toUserCollege(added) };
    }),

    implement(removeUserCollege, async (request) => {
      const uid = requireUser(request);
      const { collegeName } = request.body;
      if (!(await colleges.removeCollege(uid, collegeKey(collegeName))))
        throw new AppError('NOT_FOUND', UD_MSG.collegeNotInList(collegeName));
      return { success: true, message: MSG.collegeRemoved, data: await colleges.listCollegeNames(uid) };
    }),

    implement(getCollegeResourcesDemographics, async (request) => {
      const uid = requireUser(request);
      const listed = await requireListedCollege(deps, uid, request.query.collegeName);
      const college = await deps.fetchCollege(listed.collegeName, request.auth);
      if (!college) throw new AppError('NOT_FOUND', UD_MSG.collegeDataGone(listed.collegeName));
      return {
        success: true,
        message: MSG.resourcesAndDemographicsFound,
        resources: {
          links: college.links,
          tips: college.info.tips,
          admissionStatistics: college.info.admissionStatistics,
        },
        demographics: college.demographics,
      };
    }),
  ];
}
