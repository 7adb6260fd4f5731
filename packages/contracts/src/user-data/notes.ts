import Type, { type Static } from 'typebox';
import { ApiError, IsoDate, IsoDateTime, MultiLineString, Ok, OneLineString } from '../common.ts';
import { INPUT_MSG, MSG } from '../messages.ts';
import { defineRoute } from '../route.ts';
import { UserQ } from './query.ts';
import { LIMITS } from '../limits.ts';

export const Note = Type.Object({
  id: Type.String(),
  title: Type.String(),
  content: Type.String(),
  deadline: Type.Union([IsoDate, Type.Null()]),
  createdAt: IsoDateTime,
  updatedAt: IsoDateTime,
});
export type Note = Static<typeof Note>;

/**
 * A note's optional date from a `<input type="date">`: YYYY-MM-DD, or '' / null for none. One string
 * schema (not a union with a literal '') so that a bad value gets this message, not a schema dump.
 */
export const NoteDate = Type.Union([
  Type.String({
    maxLength: 10,
    pattern: '^(\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01]))?$',
    errorMessage: INPUT_MSG.noteDate,
  }),
  Type.Null(),
]);

/** A note's content: at most `LIMITS.noteContentMax` characters, refused beyond with the spec's own message. */
const NoteContent = MultiLineString(
  { maxLength: LIMITS.noteContentMax },
  INPUT_MSG.noteContentControl,
  MSG.noteTooLong,
);

/**
 * A note as the client sends it; `createdAt`/`updatedAt` are accepted (the spec's client sends them) and
 * ignored.
 */
export const NoteInput = Type.Object(
  {
    /** One line: it is an event's title in the calendar file and feed. */
    title: OneLineString({ maxLength: LIMITS.noteTitleMax }, INPUT_MSG.noteTitleOneLine),
    content: NoteContent,
    deadline: Type.Optional(NoteDate),
    createdAt: Type.Optional(Type.String({ maxLength: 40 })),
    updatedAt: Type.Optional(Type.String({ maxLength: 40 })),
  },
  { errorMessage: MSG.createNoteMissing },
);

export const getNotes = defineRoute({
  method: 'GET',
  path: '/get-notes',
  service: 'user-data',
  access: 'user',
  summary: "The student's notes",
  schema: {
    querystring: Type.Object(UserQ),
    response: { 200: Ok({ notes: Type.Array(Note), data: Type.Array(Note) }) },
  },
});

export const addNote = defineRoute({
  method: 'POST',
  path: '/add-note',
  service: 'user-data',
  access: 'user',
  summary: `Create a note (at most ${LIMITS.notesPerUser} per student)`,
  schema: {
    body: Type.Object({ ...UserQ, note: NoteInput }),
    response: { 200: Ok({ data: Note }), 400: ApiError, 409: ApiError },
  },
});

export const updateNote = defineRoute({
  method: 'POST',
  path: '/update-note',
  service: 'user-data',
  access: 'user',
  summary: "Update a note's content (and deadline) by id, or by title as the spec's call does",
  schema: {
    body: Type.Object(
      {
        ...UserQ,
        noteId: Type.Optional(Type.String({ maxLength: 64 })),
        noteTitle: Type.Optional(Type.String({ maxLength: LIMITS.noteTitleMax })),
        noteContent: NoteContent,
        /** Omitted: the deadline is left as it is; '' or null: removed. */
        deadline: Type.Optional(NoteDate),
      },
      { errorMessage: MSG.updateNoteMissing },
    ),
    response: { 200: Ok({ data: Note }), 400: ApiError, 404: ApiError },
  },
});

export const removeNote = defineRoute({
  method: 'POST',
  path: '/remove-note',
  service: 'user-data',
  access: 'user',
  summary: "Remove a note by id, or by title as the spec's call does",
  schema: {
    body: Type.Object({
      ...UserQ,
      noteId: Type.Optional(Type.String({ maxLength: 64 })),
      noteTitle: Type.Optional(Type.String({ maxLength: LIMITS.noteTitleMax })),
    }),
    response: { 200: Ok({ data: Type.Array(Note) }), 404: ApiError },
  },
});
