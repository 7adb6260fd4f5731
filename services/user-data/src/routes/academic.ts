import { getAcademicProfile, normaliseCollegeName, updateAcademicProfile } from '@ct/contracts';
import { implement, requireUser, type Implementation } from '@ct/service-kit';
import type { Deps } from '../deps.ts';
import { UD_MSG } from '../messages.ts';
import { presentAcademicProfile } from '../presenters.ts';

/** The student's private academic profile: scores, GPA, budget, and test-optional choices per college. */
export function academicRoutes({ academic, colleges }: Deps): Implementation[] {
  /** The student's list, so test-optional choices read back as the names they see. */
  const names = async (uid: string) =>
    new Map((await colleges.listColleges(uid)).map((c) => [c.college_key, c.college_name]));
  return [
    implement(getAcademicProfile, async (request) => {
      const uid = requireUser(request);
      return {
        success: true,
        message: UD_MSG.academicFound,
        data: presentAcademicProfile(await academic.getAcademic(uid), await names(uid)),
      };
    }),

    implement(updateAcademicProfile, async (request) => {
      const uid = requireUser(request);
      const { satReadingWriting, satMath, act, gpa, yearlyBudget, testOptional } = request.body;
      const keys = [...new Set(testOptional.map(normaliseCollegeName).filter(Boolean))];
      const row = await academic.saveAcademic(uid, {
        satReadingWriting,
        satMath,
        act,
        gpa,
        yearlyBudget,
        testOptional: keys,
      });
      return {
        success: true,
        message: UD_MSG.academicSaved,
        data: presentAcademicProfile(row, await names(uid)),
      };
    }),
  ];
}
