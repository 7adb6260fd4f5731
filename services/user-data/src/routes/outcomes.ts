import { getListOutcomes } from '@ct/contracts';
import { implement, requireUser, type Implementation } from '@ct/service-kit';
import { fetchListedCollege, type Deps } from '../deps.ts';
import { UD_MSG } from '../messages.ts';
import { presentListOutcome } from '../presenters.ts';

/** How students like the reader finish at each college of their list (issue 48). */
export function outcomeRoutes(deps: Deps): Implementation[] {
  return [
    implement(getListOutcomes, async (request) => {
      const uid = requireUser(request);
      const list = await deps.colleges.listCollegeNames(uid);
      // The figures are the colleges service's: read through its API, one college at a time, in parallel
      // (a list holds at most LIMITS.collegesPerUser colleges).
      const colleges = await Promise.all(list.map((entry) => fetchListedCollege(deps, entry, request)));
      return {
        success: true,
        message: UD_MSG.listOutcomesFound,
        colleges: list.map((entry, i) => presentListOutcome(entry, colleges[i] ?? null)),
      };
    }),
  ];
}
