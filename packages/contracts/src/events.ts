import Type, { type Static, type TSchema } from 'typebox';
import type { ServiceName } from './route.ts';

/** A job or event: declared once, by name and payload schema. */
export interface MessageDef<S extends TSchema = TSchema> {
  name: string;
  schema: S;
}
function defineMessage<const S extends TSchema>(name: string, schema: S): MessageDef<S> {
  return { name, schema };
}

// ---- jobs ----

/** Queue the ingestion worker consumes. */
export const INGESTION_QUEUE = 'ingestion';

export const IngestCollegeJob = defineMessage(
  'ingest-college',
  Type.Object({
    /** Normalised name: the ingestion request's key (the job id is derived from it, see ingestionJobId) */
    key: Type.String(),
    /** The name as the student typed it, or the official name of a cached college */
    name: Type.String(),
    /** Known College Scorecard id (a college preloaded by the import), so the worker need not search */
    scorecardId: Type.Optional(Type.Integer()),
    requestId: Type.Optional(Type.String()),
  }),
);
export type IngestCollegeJob = Static<typeof IngestCollegeJob.schema>;

export const IngestMajorJob = defineMessage(
  'ingest-major',
  Type.Object({
    key: Type.String(),
    collegeName: Type.String(),
    major: Type.String(),
    /** CIP 2020 code of the major, from the product's list */
    cip: Type.Optional(Type.String()),
    requestId: Type.Optional(Type.String()),
  }),
);
export type IngestMajorJob = Static<typeof IngestMajorJob.schema>;

export const JOBS = [IngestCollegeJob, IngestMajorJob] as const;

/**
 * The deterministic BullMQ job id of a job: the job name plus its key, so the same request is one job.
 * (A bare key could be all digits, which BullMQ refuses as a custom id.)
 */
export function ingestionJobId(job: MessageDef, key: string): string {
  return `${job.name}.${key}`.replace(/:/g, '_');
}

// ---- events ----

export const CollegeIngestedEvent = defineMessage(
  'college.ingested',
  Type.Object({
    /** Official name of the stored college */
    name: Type.String(),
    /** Its College Scorecard UNITID, when it has a government record (students' entries point at it) */
    scorecardId: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
    aliases: Type.Array(Type.String()),
    deadlines: Type.Array(
      Type.Object({ type: Type.String(), date: Type.Union([Type.String(), Type.Null()]) }),
    ),
    essayPrompts: Type.Array(Type.String()),
    essayPromptMeta: Type.Optional(
      Type.Array(Type.Object({ prompt: Type.String(), wordLimit: Type.Union([Type.Number(), Type.Null()]) })),
    ),
    ingestedAt: Type.String(),
  }),
);
export type CollegeIngestedEvent = Static<typeof CollegeIngestedEvent.schema>;

/**
 * A college was deleted or merged into another by an admin. Students' list entries follow a merge (for a
 * college private to some students, only theirs: `students`); the essays grid drops the college.
 */
export const CollegeRemovedEvent = defineMessage(
  'college.removed',
  Type.Object({
    /** Name of the removed college */
    name: Type.String(),
    /** The college it was merged into, with its deadlines for the checklists that move; null: deleted */
    mergedInto: Type.Union([
      Type.Object({
        name: Type.String(),
        deadlines: Type.Array(
          Type.Object({ type: Type.String(), date: Type.Union([Type.String(), Type.Null()]) }),
        ),
      }),
      Type.Null(),
    ]),
    /** Only these students' lists (a college private to them); null: every student's */
    students: Type.Union([Type.Array(Type.String()), Type.Null()]),
    removedAt: Type.String(),
  }),
);
export type CollegeRemovedEvent = Static<typeof CollegeRemovedEvent.schema>;

export const EVENTS = [CollegeIngestedEvent, CollegeRemovedEvent] as const;

/** Who consumes which event. Each subscriber gets a durable queue of its own (`events.<service>`). */
export const EVENT_SUBSCRIBERS: Record<string, ServiceName[]> = {
  [CollegeIngestedEvent.name]: ['essays', 'user-data'],
  [CollegeRemovedEvent.name]: ['essays', 'user-data'],
};
export function eventQueueName(service: ServiceName): string {
  return `events.${service}`;
}
