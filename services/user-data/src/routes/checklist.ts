import { getCollegeChecklist, MSG, updateChecklist } from '@ct/contracts';
import { AppError, implement, requireUser, type Implementation } from '@ct/service-kit';
import { mergeReplace, toggleItem, type ToggleRefusal } from '../checklist.ts';
import { studentDeadlines } from '../deadlines/next-deadlines.ts';
import { collegeKey, requireListedCollege, type Deps } from '../deps.ts';
import { UD_MSG } from '../messages.ts';

/** A college's checklist: read it, replace it whole, or tick one item. */
export function checklistRoutes(deps: Deps): Implementation[] {
  return [
    implement(getCollegeChecklist, async (request) => {
      const uid = requireUser(request);
      const college = await requireListedCollege(deps, uid, request.query.collegeName);
      // Beyond the spec: the college's deadlines for the student's cycle, every plan, projected and labelled.
      const resolved = (await studentDeadlines(deps, uid)).colleges.get(college.college_key)?.all ?? [];
      return {
        success: true,
        message: MSG.checklistFound,
        checklist: college.checklist,
        deadlines: resolved.map((d) => ({
          type: d.type,
          date: d.date,
          ...(d.projected ? { projected: true } : {}),
          label: d.label,
          kind: d.kind,
        })),
      };
    }),

    implement(updateChecklist, async (request) => {
      const uid = requireUser(request);
      const body = request.body;
      const key = collegeKey(body.collegeName);
      const result =
        'checklist' in body
          ? await deps.colleges.updateChecklist<ToggleRefusal>(uid, key, (current) =>
              mergeReplace(current, body.checklist),
            )
          : await deps.colleges.updateChecklist<ToggleRefusal>(uid, key, (current) =>
              toggleItem(current, body.section, body.itemIndex, body.completed, body.itemText),
            );
      if (result === null) throw new AppError('NOT_FOUND', UD_MSG.collegeNotInList(body.collegeName));
      if (result === 'stale') throw new AppError('STALE_ITEM', UD_MSG.staleItem);
      return { success: true, message: UD_MSG.checklistUpdated, checklist: result };
    }),
  ];
}
