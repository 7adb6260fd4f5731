import Type, { type Static } from 'typebox';
import { ApiError, CollegeName, Ok } from '../common.ts';
import { INPUT_MSG } from '../messages.ts';
import { defineRoute } from '../route.ts';
import { UserCollegeQ, UserQ } from './query.ts';
import { LIMITS } from '../limits.ts';

/** A task the student can tick, reword, delete or add. */
export const ChecklistTask = Type.Object(
  {
    text: Type.String({ maxLength: LIMITS.checklistItemTextMax }),
    completed: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type ChecklistTask = Static<typeof ChecklistTask>;
/**
 * Deadline items come from the college's data: the student may tick them, but their type and date are
 * read-only (the server keeps its own copy on a whole replace, and refreshes them on `college.ingested`).
 */
export const ChecklistDeadline = Type.Object(
  {
    type: Type.String({ maxLength: 100 }),
    date: Type.Union([Type.String({ maxLength: 40 }), Type.Null()]),
    completed: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type ChecklistDeadline = Static<typeof ChecklistDeadline>;
export const ChecklistItem = Type.Union([ChecklistTask, ChecklistDeadline]);
export type ChecklistItem = Static<typeof ChecklistItem>;

/** Sections keyed in camelCase; at most 30 sections of at most 200 items (`LIMITS`). */
export const Checklist = Type.Record(
  Type.String({ pattern: '^[a-z][A-Za-z0-9]{0,59}$' }),
  Type.Array(ChecklistItem, { maxItems: LIMITS.checklistItemsPerSection }),
  {
    maxProperties: LIMITS.checklistSectionsMax,
    additionalProperties: false,
    errorMessage: INPUT_MSG.checklistSections,
  },
);
export type Checklist = Static<typeof Checklist>;

export const getCollegeChecklist = defineRoute({
  method: 'GET',
  path: '/get-college-checklist',
  service: 'user-data',
  access: 'user',
  summary: "A college's checklist for the student",
  schema: {
    querystring: UserCollegeQ,
    response: {
      200: Ok({
        checklist: Checklist,
        /**
         * Beyond the spec: the college's deadlines for the student's cycle, every plan, each with the words
         * to show ("Expected January 1, 2027 (last cycle's date; confirm on the college's site)").
         */
        deadlines: Type.Optional(
          Type.Array(
            Type.Object({
              type: Type.String(),
              date: Type.Union([Type.String(), Type.Null()]),
              projected: Type.Optional(Type.Boolean()),
              label: Type.String(),
              /** application, priority-merit, css-profile, interview, reply, ... */
              kind: Type.Optional(Type.String()),
            }),
          ),
        ),
      }),
      404: ApiError,
    },
  },
});

export const updateChecklist = defineRoute({
  method: 'POST',
  path: '/update-checklist',
  service: 'user-data',
  access: 'user',
  summary: 'Replace the whole checklist, or toggle one item (refused when the item index is stale)',
  schema: {
    body: Type.Union([
      Type.Object(
        { ...UserQ, collegeName: CollegeName, checklist: Checklist },
        { additionalProperties: false },
      ),
      Type.Object(
        {
          ...UserQ,
          collegeName: CollegeName,
          section: Type.String({ minLength: 1, maxLength: 60 }),
          itemIndex: Type.Integer({ minimum: 0, maximum: 1000 }),
          completed: Type.Boolean(),
          /**
           * Optional guard: the item's text (a deadline item's type) as the client saw it; a mismatch is
           * refused as stale (409), so a toggle never lands on the wrong item.
           */
          itemText: Type.Optional(Type.String({ maxLength: 500 })),
        },
        { additionalProperties: false },
      ),
    ]),
    response: { 200: Ok({ checklist: Checklist }), 404: ApiError, 409: ApiError },
  },
});
