import { getStudentProfile, updateStudentProfile } from '@ct/contracts';
import { implement, requireUser, type Implementation } from '@ct/service-kit';
import type { Deps } from '../deps.ts';
import { UD_MSG } from '../messages.ts';
import { presentProfile } from '../presenters.ts';

/** The student's private money profile: home state and household income band, both optional. */
export function profileRoutes({ profiles }: Deps): Implementation[] {
  return [
    implement(getStudentProfile, async (request) => {
      const uid = requireUser(request);
      return {
        success: true,
        message: UD_MSG.profileFound,
        data: presentProfile(await profiles.getProfile(uid)),
      };
    }),

    implement(updateStudentProfile, async (request) => {
      const uid = requireUser(request);
      const { homeState, incomeBand, pellEligible, firstGeneration } = request.body;
      return {
        success: true,
        message: UD_MSG.profileSaved,
        data: presentProfile(
          await profiles.saveProfile(uid, { homeState, incomeBand, pellEligible, firstGeneration }),
        ),
      };
    }),
  ];
}
