import {
  internalGetCollege,
  internalRequestCollegeFacts,
  normaliseCollegeName,
  type College,
} from '@ct/contracts';
import { AppError, type AuthContext, type ServiceContext } from '@ct/service-kit';
import type { UserDataSettings } from './config.ts';
import { UD_MSG } from './messages.ts';
import { AcademicRepository } from './repositories/academic.ts';
import { UserCollegeRepository } from './repositories/colleges.ts';
import { DigestRepository } from './repositories/digests.ts';
import { DraftRepository } from './repositories/drafts.ts';
import { ExportClaimRepository } from './repositories/exports.ts';
import { IdempotencyRepository } from './repositories/idempotency.ts';
import { CalendarFeedRepository } from './repositories/feeds.ts';
import { NoteReadRepository } from './repositories/note-reads.ts';
import { NoteRepository } from './repositories/notes.ts';
import { ProfileRepository } from './repositories/profiles.ts';
import { RecommenderRepository } from './repositories/recommenders.ts';
import { ReminderRepository } from './repositories/reminders.ts';
import { SeasonRepository } from './repositories/season.ts';
import { ShareLinkRepository } from './repositories/share-links.ts';
import { StudentRepository } from './repositories/students.ts';
import { pushServiceRule, type PushServiceRule } from './reminders/push-endpoint.ts';
import { vapidKeys, type VapidKeys } from './reminders/vapid.ts';

/** The request on whose behalf a call is made: its verified identity and its id. */
export interface Caller {
  auth: AuthContext | null;
  id: string;
}

/** What every route module of the service is given. */
export interface Deps {
  ctx: ServiceContext<UserDataSettings>;
  colleges: UserCollegeRepository;
  notes: NoteRepository;
  /** Who among the admins read whose notes, when. */
  noteReads: NoteReadRepository;
  feeds: CalendarFeedRepository;
  students: StudentRepository;
  profiles: ProfileRepository;
  academic: AcademicRepository;
  drafts: DraftRepository;
  /** Claims of running exports: one at a time per student. */
  exports: ExportClaimRepository;
  recommenders: RecommenderRepository;
  season: SeasonRepository;
  /** Read-only links a student handed to a parent or counselor. */
  shareLinks: ShareLinkRepository;
  /** The clock: now, or the instant a test set (USER_DATA_CLOCK). */
  now(): Date;
  /** Ids of writes already applied (a queued write sent twice is applied once). */
  idempotency: IdempotencyRepository;
  /** Push subscriptions, reminder settings and the record of reminders sent. */
  reminders: ReminderRepository;
  /** Who gets the weekly e-mail of deadlines, where, and the weeks sent. */
  digests: DigestRepository;
  /** The keys deadline reminders are signed with (config, or kept in the data folder). */
  vapid: VapidKeys;
  /** The push services reminders may be sent through (issue 50.1). */
  pushServices: PushServiceRule;
  /**
   * A college from the colleges service (its API, never its tables); null when it has none. With the
   * student's identity, a college private to them (waiting for an admin's review) is found too. `from`:
   * the request asking (its identity, and its id, which the call carries on).
   */
  fetchCollege(name: string, from?: Caller | null, scorecardId?: number | null): Promise<College | null>;
  /**
   * Asks the colleges service to gather a listed college's facts from its own pages when it still lacks
   * them (a student added it: a write). Best effort: the list entry is saved either way.
   */
  requestCollegeFacts(name: string, from: Caller, scorecardId?: number | null): Promise<void>;
}

export function makeDeps(ctx: ServiceContext<UserDataSettings>): Deps {
  return {
    ctx,
    colleges: new UserCollegeRepository(ctx.db),
    notes: new NoteRepository(ctx.db),
    noteReads: new NoteReadRepository(ctx.db),
    feeds: new CalendarFeedRepository(ctx.db),
    students: new StudentRepository(ctx.db),
    profiles: new ProfileRepository(ctx.db),
    academic: new AcademicRepository(ctx.db),
    drafts: new DraftRepository(ctx.db),
    exports: new ExportClaimRepository(ctx.db),
    recommenders: new RecommenderRepository(ctx.db),
    season: new SeasonRepository(ctx.db),
    shareLinks: new ShareLinkRepository(ctx.db),
    now: clockOf(ctx.config as { NODE_ENV?: string; USER_DATA_CLOCK?: string }),
    idempotency: new IdempotencyRepository(ctx.db),
    reminders: new ReminderRepository(ctx.db),
    digests: new DigestRepository(ctx.db),
    vapid: vapidKeys(ctx.config),
    pushServices: pushServiceRule(ctx.config.PUSH_SERVICE_HOSTS),
    async fetchCollege(name, from, scorecardId) {
      const query = scorecardId ? { name, scorecardId } : { name };
      try {
        return (
          await ctx.clients.call(internalGetCollege, {
            query,
            auth: from?.auth ?? null,
            requestId: from?.id,
          })
        ).college;
      } catch (err) {
        if (err instanceof AppError && err.statusCode === 404) return null;
        throw err;
      }
    },
    async requestCollegeFacts(name, from, scorecardId) {
      try {
        await ctx.clients.call(internalRequestCollegeFacts, {
          body: scorecardId ? { name, scorecardId } : { name },
          auth: from.auth ?? null,
          requestId: from.id,
        });
      } catch (err) {
        ctx.log.warn({ err }, "could not ask for a listed college's facts");
      }
    },
  };
}

/** The service's clock: a fixed instant when a test sets USER_DATA_CLOCK (never in production). */
function clockOf(config: { NODE_ENV?: string; USER_DATA_CLOCK?: string }): () => Date {
  const fixed =
    config.NODE_ENV !== 'production' && config.USER_DATA_CLOCK ? Date.parse(config.USER_DATA_CLOCK) : NaN;
  return Number.isFinite(fixed) ? () => new Date(fixed) : () => new Date();
}

/** The key a college is stored under on a student's list. */
export const collegeKey = (name: string) => normaliseCollegeName(name);

/** The student's college by the name a client sent, or 404 with a clear message. */
export async function requireListedCollege(deps: Deps, userId: string, name: string) {
  const found = await deps.colleges.findCollege(userId, collegeKey(name));
  if (!found) throw new AppError('NOT_FOUND', UD_MSG.collegeNotInList(name));
  return found;
}

/**
 * The college a list entry points at: by its UNITID when the entry has one, else by its stored name. A
 * read only reads: an entry made before UNITIDs were kept learns its UNITID from the `college.ingested`
 * event of its college (see events.ts), never from a GET.
 */
export async function fetchListedCollege(
  deps: Deps,
  entry: { college_name: string; scorecard_id: number | null },
  from?: Caller | null,
): Promise<College | null> {
  return deps.fetchCollege(entry.college_name, from, entry.scorecard_id);
}
