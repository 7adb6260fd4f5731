import {
  askByDate,
  getRecommenders,
  INPUT_MSG,
  localToday,
  removeRecommender,
  saveRecommender,
  LIMITS,
} from '@ct/contracts';
import { AppError, implement, requireUser, type Implementation } from '@ct/service-kit';
import { isRealDate } from '../checklist.ts';
import { studentDeadlines } from '../deadlines/next-deadlines.ts';
import { requireListedCollege, type Deps } from '../deps.ts';
import { UD_MSG } from '../messages.ts';
import { presentRecommender } from '../presenters.ts';

/** '' and null mean "no date"; undefined means "not sent". A date must name a real day. */
function optionalDate(d: string | null | undefined): string | null | undefined {
  if (d === undefined) return undefined;
  if (d === null || d === '') return null;
  if (!isRealDate(d)) throw new AppError('VALIDATION_ERROR', INPUT_MSG.dates);
  return d;
}

/** Who writes the student's recommendations for each college, with the date to ask them by. */
export function recommenderRoutes(deps: Deps): Implementation[] {
  const { recommenders } = deps;
  return [
    implement(getRecommenders, async (request) => {
      const uid = requireUser(request);
      const college = await requireListedCollege(deps, uid, request.query.collegeName);
      return {
        success: true,
        message: UD_MSG.recommendersFound,
        recommenders: (await recommenders.listRecommenders(uid, college.college_key)).map(presentRecommender),
        // The cycle's applicable application deadlines (projected where only last cycle's is known).
        askBy: askByDate(
          ((await studentDeadlines(deps, uid)).colleges.get(college.college_key)?.items ?? [])
            .filter((d) => d.kind === 'application')
            .map((d) => ({ type: d.type, date: d.date })),
          localToday(deps.now()),
        ),
      };
    }),

    implement(saveRecommender, async (request) => {
      const uid = requireUser(request);
      const b = request.body;
      const who = b.who.replace(/\s+/g, ' ').trim();
      if (!who) throw new AppError('VALIDATION_ERROR', INPUT_MSG.recommenderWhoBlank);
      const input = { who, askedOn: optionalDate(b.askedOn), submittedOn: optionalDate(b.submittedOn) };
      const college = await requireListedCollege(deps, uid, b.collegeName);
      const saved = await recommenders.saveRecommender(
        uid,
        college.college_key,
        b.recommenderId,
        input,
        LIMITS.recommendersPerCollege,
      );
      if (saved === 'full') throw new AppError('LIMIT_REACHED', UD_MSG.tooManyRecommenders);
      if (saved === 'not-found') throw new AppError('NOT_FOUND', UD_MSG.recommenderNotFound);
      return { success: true, message: UD_MSG.recommenderSaved, data: presentRecommender(saved) };
    }),

    implement(removeRecommender, async (request) => {
      const uid = requireUser(request);
      const key = await recommenders.removeRecommender(uid, request.body.recommenderId);
      if (key === null) throw new AppError('NOT_FOUND', UD_MSG.recommenderNotFound);
      return {
        success: true,
        message: UD_MSG.recommenderRemoved,
        data: (await recommenders.listRecommenders(uid, key)).map(presentRecommender),
      };
    }),
  ];
}
