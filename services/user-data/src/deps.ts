import { internalGetCollege, normaliseCollegeName, type College } from '@ct/contracts';
import { AppError, type AuthContext, type ServiceContext } from '@ct/service-kit';
import { UD_MSG } from './messages.ts';
import { UserCollegeRepository } from './repositories/colleges.ts';
import { DraftRepository } from './repositories/drafts.ts';
import { CalendarFeedRepository } from './repositories/feeds.ts';
import { NoteRepository } from './repositories/notes.ts';
import { ProfileRepository } from './repositories/profiles.ts';
import { RecommenderRepository } from './repositories/recommenders.ts';
import { SeasonRepository } from './repositories/season.ts';
import { StudentRepository } from './repositories/students.ts';

/** What every route module of the service is given. */
export interface Deps {
  ctx: ServiceContext;
  colleges: UserCollegeRepository;
  notes: NoteRepository;
  feeds: CalendarFeedRepository;
  students: StudentRepository;
  profiles: ProfileRepository;
  drafts: DraftRepository;
  recommenders: RecommenderRepository;
  season: SeasonRepository;
  /**
   * A college from the colleges service (its API, never its tables); null when it has none. With the
   * student's identity, a college private to them (waiting for an admin's review) is found too.
   */
  fetchCollege(name: string, auth?: AuthContext | null, scorecardId?: number | null): Promise<College | null>;
}

export function makeDeps(ctx: ServiceContext): Deps {
  return {
    ctx,
    colleges: new UserCollegeRepository(ctx.db),
    notes: new NoteRepository(ctx.db),
    feeds: new CalendarFeedRepository(ctx.db),
    students: new StudentRepository(ctx.db),
    profiles: new ProfileRepository(ctx.db),
    drafts: new DraftRepository(ctx.db),
    recommenders: new RecommenderRepository(ctx.db),
    season: new SeasonRepository(ctx.db),
    async fetchCollege(name, auth, scorecardId) {
      const query = scorecardId ? { name, scorecardId } : { name };
      try {
        return (await ctx.clients.call(internalGetCollege, { query, auth: auth ?? null })).college;
      } catch (err) {
        if (err instanceof AppError && err.statusCode === 404) return null;
        throw err;
      }
    },
  };
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
 * The college a list entry points at: by its UNITID when the entry has one, else by its stored name; an
 * entry without a UNITID learns it when that name is the college's own official one (never an alias).
 */
export async function fetchListedCollege(
  deps: Deps,
  entry: { user_id: string; college_key: string; college_name: string; scorecard_id: number | null },
  auth?: AuthContext | null,
): Promise<College | null> {
  const college = await deps.fetchCollege(entry.college_name, auth, entry.scorecard_id);
  if (college && entry.scorecard_id === null && college.scorecardId !== null) {
    if (collegeKey(college.name) === entry.college_key)
      await deps.colleges.learnScorecardId(entry.college_key, college.scorecardId, entry.user_id);
  }
  return college;
}
