import Type, { type Static } from 'typebox';
import { ApiError, IsoDateTime, Ok } from '../common.ts';
import { INPUT_MSG } from '../messages.ts';
import { defineRoute } from '../route.ts';
import { UserQ } from './query.ts';
import { LIMITS } from '../limits.ts';

// ---- beyond the spec: the student's essay drafts ----

/** A student's draft for one prompt; prompts that read the same across colleges share it. */
export const EssayDraft = Type.Object({
  id: Type.String(),
  /** The prompt's words without case, punctuation or word-limit notes (`essayPromptKey`). */
  promptKey: Type.String(),
  /** The prompt as the student first saved it */
  prompt: Type.String(),
  body: Type.String(),
  wordCount: Type.Integer(),
  /** Goes up by one on every save; a save names the revision it started from. */
  revision: Type.Integer(),
  versions: Type.Integer({ description: 'How many earlier versions are kept' }),
  createdAt: IsoDateTime,
  updatedAt: IsoDateTime,
});
export type EssayDraft = Static<typeof EssayDraft>;

export const EssayDraftVersion = Type.Object({
  id: Type.String(),
  body: Type.String(),
  wordCount: Type.Integer(),
  createdAt: IsoDateTime,
});
export type EssayDraftVersion = Static<typeof EssayDraftVersion>;

export const getEssayDrafts = defineRoute({
  method: 'GET',
  path: '/get-essay-drafts',
  service: 'user-data',
  access: 'user',
  summary: "The student's essay drafts, one per prompt text",
  schema: { querystring: Type.Object(UserQ), response: { 200: Ok({ drafts: Type.Array(EssayDraft) }) } },
});

export const saveEssayDraft = defineRoute({
  method: 'POST',
  path: '/save-essay-draft',
  service: 'user-data',
  access: 'user',
  summary: `Save the draft of a prompt (autosave). Refused with 409 when it changed since \`baseRevision\`; the text it replaces is kept as a version every ${LIMITS.autoVersionMinutes} minutes, and always with \`keepVersion\``,
  schema: {
    body: Type.Object(
      {
        ...UserQ,
        prompt: Type.String({ minLength: 1, maxLength: 5000 }),
        body: Type.String({
          maxLength: LIMITS.draftCharsMax,
          errorMessage: INPUT_MSG.draftTooLong,
        }),
        /** The revision the text was based on; 0 or absent for a draft the client has not seen saved. */
        baseRevision: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000 })),
        /** Keep the text being replaced as a version (restoring a version, "Save a version"). */
        keepVersion: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: false },
    ),
    response: { 200: Ok({ data: EssayDraft }), 400: ApiError, 409: ApiError },
  },
});

export const getEssayDraftVersions = defineRoute({
  method: 'GET',
  path: '/get-essay-draft-versions',
  service: 'user-data',
  access: 'user',
  summary: "Earlier versions of one of the student's drafts, newest first",
  schema: {
    querystring: Type.Object({ ...UserQ, draftId: Type.String({ format: 'uuid', maxLength: 36 }) }),
    response: { 200: Ok({ versions: Type.Array(EssayDraftVersion) }), 404: ApiError },
  },
});
