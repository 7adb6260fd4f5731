import Type, { type Static } from 'typebox';
import { ApiError, CollegeName, ForgetStudent, IsoDateTime } from './common.ts';
import type { MessageDef } from './events.ts';
import { INPUT_MSG } from './messages.ts';
import { defineRoute } from './route.ts';
import { LIMITS } from './limits.ts';

/** Kinds of prompt, so one draft can serve similar prompts of several colleges. */
export const PROMPT_CATEGORIES = [
  'why-us',
  'major',
  'community',
  'activity',
  'challenge',
  'intellectual',
  'identity',
  'growth',
  'creativity',
  'open',
  'other',
] as const;
export const PromptCategory = Type.Union([
  Type.Literal('why-us'),
  Type.Literal('major'),
  Type.Literal('intellectual'),
  Type.Literal('challenge'),
  Type.Literal('identity'),
  Type.Literal('community'),
  Type.Literal('activity'),
  Type.Literal('growth'),
  Type.Literal('creativity'),
  Type.Literal('open'),
  Type.Literal('other'),
]);
export type PromptCategory = (typeof PROMPT_CATEGORIES)[number];

/** A prompt with what the student needs around it. */
export const PromptDetail = Type.Object({
  prompt: Type.String(),
  /** Most words allowed, when the college publishes it */
  wordLimit: Type.Union([Type.Integer(), Type.Null()]),
  /** Fewest words expected, when published */
  wordMin: Type.Union([Type.Integer(), Type.Null()]),
  category: PromptCategory,
  sourceUrl: Type.Union([Type.String(), Type.Null()]),
  /** A caveat about the wording, e.g. when it could not be checked against the official page */
  note: Type.Union([Type.String(), Type.Null()]),
});
export type PromptDetail = Static<typeof PromptDetail>;

/** An example essay: always a labelled example, never a real applicant's essay. */
export const ExampleEssay = Type.Object({
  id: Type.String(),
  text: Type.String(),
  title: Type.Union([Type.String(), Type.Null()]),
  origin: Type.Union([Type.Literal('ai'), Type.Literal('admin')]),
  /** The label shown with it */
  label: Type.String(),
  createdAt: IsoDateTime,
});
export type ExampleEssay = Static<typeof ExampleEssay>;

export const getCollegesEssays = defineRoute({
  method: 'GET',
  path: '/get-colleges-essays',
  service: 'essays',
  access: 'user',
  summary: 'Names of colleges that have essay prompts',
  schema: {
    response: {
      200: Type.Object({
        success: Type.Literal(true),
        message: Type.String(),
        colleges: Type.Array(Type.String()),
        /** Which of them are application platforms whose prompts serve many colleges (Common App, UC) */
        applications: Type.Optional(Type.Array(Type.String())),
      }),
    },
  },
});

export const getPrompts = defineRoute({
  method: 'GET',
  path: '/get-prompts',
  service: 'essays',
  access: 'user',
  summary: "A college's essay prompts, with word limits and kinds",
  schema: {
    querystring: Type.Object({ collegeName: CollegeName }),
    response: {
      200: Type.Object({
        success: Type.Literal(true),
        message: Type.String(),
        prompts: Type.Array(Type.String()),
        details: Type.Array(PromptDetail),
      }),
      404: ApiError,
    },
  },
});

const EssaysQuery = Type.Object({
  collegeName: CollegeName,
  prompt: Type.String({ minLength: 1, maxLength: 5000 }),
});

export const getEssays = defineRoute({
  method: 'GET',
  path: '/get-essays',
  service: 'essays',
  access: 'user',
  summary:
    "Example essays for a prompt (clearly labelled examples, never a real applicant's essay); 202 while they are being written",
  schema: {
    querystring: EssaysQuery,
    response: {
      200: Type.Object({
        success: Type.Literal(true),
        message: Type.String(),
        essays: Type.Array(Type.String()),
        examples: Type.Array(ExampleEssay),
      }),
      202: Type.Object({
        success: Type.Literal(true),
        message: Type.String(),
        essays: Type.Array(Type.String()),
        state: Type.String(),
      }),
      404: ApiError,
    },
  },
});

export const PromptGroup = Type.Object({
  category: PromptCategory,
  /** e.g. "Why this college" */
  label: Type.String(),
  /** How one draft can be adapted across the group */
  advice: Type.String(),
  /** Each different prompt once: a prompt several colleges ask is one draft, as the drafts list has it */
  prompts: Type.Array(
    Type.Object({
      /** The first college asking it */
      collegeName: Type.String(),
      /** Every college of the student asking it (prompts that read the same, as `essayPromptKey` says) */
      colleges: Type.Array(Type.String()),
      prompt: Type.String(),
      /** The strictest limit among them */
      wordLimit: Type.Union([Type.Integer(), Type.Null()]),
    }),
  ),
});
export type PromptGroup = Static<typeof PromptGroup>;

export const getPromptGroups = defineRoute({
  method: 'GET',
  path: '/get-prompt-groups',
  service: 'essays',
  access: 'user',
  summary: "The student's colleges' prompts grouped by kind, so one draft can serve several",
  schema: {
    response: {
      200: Type.Object({
        success: Type.Literal(true),
        message: Type.String(),
        /** The student's colleges that have prompts */
        colleges: Type.Array(Type.String()),
        groups: Type.Array(PromptGroup),
      }),
    },
  },
});

export const getMyEssayPrompts = defineRoute({
  method: 'GET',
  path: '/get-my-essay-prompts',
  service: 'essays',
  access: 'user',
  summary:
    "Each college on the student's list, in list order, with its prompts and word limits (none when it has no prompts)",
  schema: {
    response: {
      200: Type.Object({
        success: Type.Literal(true),
        message: Type.String(),
        colleges: Type.Array(Type.Object({ collegeName: Type.String(), prompts: Type.Array(PromptDetail) })),
      }),
      503: ApiError,
    },
  },
});

export const addExampleEssay = defineRoute({
  method: 'POST',
  path: '/add-example-essay',
  service: 'essays',
  access: 'admin',
  summary: 'Admins add an example essay to a prompt (shown labelled as an example)',
  schema: {
    body: Type.Object({
      prompt: Type.String({ minLength: 1, maxLength: 5000 }),
      title: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
      essay: Type.String({
        minLength: LIMITS.exampleEssayMin,
        maxLength: LIMITS.exampleEssayMax,
        errorMessage: INPUT_MSG.exampleEssayLength,
      }),
    }),
    response: {
      201: Type.Object({ success: Type.Literal(true), message: Type.String(), example: ExampleEssay }),
      404: ApiError,
    },
  },
});

// ---- jobs of the essays service (its own queue) ----

/** Queue of the essays work (example essays, platform prompts); the ingestion worker consumes it. */
export const ESSAY_EXAMPLES_QUEUE = 'essays.examples';

const WriteExampleEssaysPayload = Type.Object({
  /** Key of the prompt text; also part of the job id, so a prompt is written for once */
  promptKey: Type.String(),
  requestId: Type.Optional(Type.String()),
});
export const WriteExampleEssaysJob: MessageDef<typeof WriteExampleEssaysPayload> = {
  name: 'write-example-essays',
  schema: WriteExampleEssaysPayload,
};
export type WriteExampleEssaysJobData = Static<typeof WriteExampleEssaysPayload>;

const GatherPlatformPromptsPayload = Type.Object({
  /** The admission cycle the prompts are for ("2026-27"); part of the job id, so one gathering per cycle */
  cycle: Type.String(),
});
/** Gathers the Common App and University of California prompts from their official pages (AI provider). */
export const GatherPlatformPromptsJob: MessageDef<typeof GatherPlatformPromptsPayload> = {
  name: 'gather-platform-prompts',
  schema: GatherPlatformPromptsPayload,
};
export type GatherPlatformPromptsJobData = Static<typeof GatherPlatformPromptsPayload>;

/** The jobs of the essays queue (the worker's registry checks its handlers against this list). */
export const ESSAY_JOBS = [WriteExampleEssaysJob, GatherPlatformPromptsJob] as const;

/** Internal, for account deletion: an admin's name on the example essays they added is removed. */
export const internalForgetEssaysStudent = defineRoute({
  method: 'POST',
  path: '/internal/essays/forget-student',
  service: 'essays',
  access: 'internal',
  summary: 'Forgets a deleted account: example essays it added no longer name it',
  schema: {
    body: ForgetStudent,
    response: { 200: Type.Object({ rows: Type.Integer() }) },
  },
});

export const essaysRoutes = [
  internalForgetEssaysStudent,
  getCollegesEssays,
  getPrompts,
  getEssays,
  getPromptGroups,
  getMyEssayPrompts,
  addExampleEssay,
];
