import {
  addUserCollege,
  getCollegeResourcesDemographics,
  getUserColleges,
  moneyDataYears,
  MSG,
  removeUserCollege,
  type College,
} from '@ct/contracts';
import { AppError, implement, requireUser, type Implementation } from '@ct/service-kit';
import { buildChecklist, refreshDeadlines } from '../checklist.ts';
import { collegeKey, requireListedCollege, type Deps } from '../deps.ts';
import { USER_DATA_LIMITS } from '../limits.ts';
import { UD_MSG } from '../messages.ts';
import { toUserCollege } from '../repositories/colleges.ts';

/** The demographics, with the data years of its money figures filled in from its sources where missing. */
function withMoneyYears(college: College): College['demographics'] {
  const years = {
    ...moneyDataYears(college.demographics.dataYears, college.sources),
    ...college.demographics.dataYears,
  };
  return Object.keys(years).length ? { ...college.demographics, dataYears: years } : college.demographics;
}

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
        {
          maxColleges: USER_DATA_LIMITS.collegesPerUser,
          keepDays: USER_DATA_LIMITS.removedCollegeKeepDays,
        },
        // A kept checklist gets the college's current deadlines, keeping the student's ticks and tasks.
        (saved) => refreshDeadlines(saved, college.info.deadlines) ?? saved,
      );
      if (added === 'exists') throw new AppError('CONFLICT', UD_MSG.collegeAlreadyAdded(college.name));
      if (added === 'full') throw new AppError('LIMIT_REACHED', UD_MSG.tooManyColleges);
      return {
        success: true,
        message: added.restored ? UD_MSG.collegeRestored : MSG.collegeAdded,
        data: toUserCollege(added.college),
        restored: added.restored,
      };
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
        // The dashboard shows no sources: the money figures' data years travel with the demographics.
        demographics: withMoneyYears(college),
      };
    }),
  ];
}
