import type { College, IngestCollegeJob } from '@ct/contracts';
import { isOfficialSource, officialWebsiteOf, type ScorecardClient } from '@ct/providers';
import { GATHER_MSG } from '../messages.ts';
import type { CollegeRepository } from '../repositories/colleges.ts';
import type { GovernmentRead, KnownCollege } from './gather-college.types.ts';
import { absorb } from './provider-failure.ts';

/**
 * Step 1: the college's government data from the College Scorecard, by the id its request knew or by
 * name. A college whose government data is stored already (the shipped snapshot, an operator's import,
 * an earlier gathering) spends no Scorecard call: the stored figures stay and frame the question
 * (issue 45). Without a key, or when the Scorecard has no such college, the reason goes in the document.
 */
export async function readGovernmentData(
  scorecard: ScorecardClient | null,
  colleges: CollegeRepository,
  { name, scorecardId }: IngestCollegeJob,
  lastTry: boolean,
): Promise<GovernmentRead> {
  if (scorecardId !== undefined) {
    const stored = await colleges.getByScorecardId(scorecardId);
    if (stored && holdsGovernmentData(stored)) {
      return { gov: null, sameName: 0, reason: GATHER_MSG.governmentStoredReason, failure: null, stored };
    }
  }
  if (!scorecard) return { gov: null, sameName: 0, reason: GATHER_MSG.noScorecardKeyReason, failure: null };
  try {
    const match =
      scorecardId !== undefined
        ? { school: await scorecard.getSchool(scorecardId), sameNameCount: 0 }
        : await scorecard.findSchool(name);
    const gov = match?.school ?? null;
    const reason = gov ? undefined : GATHER_MSG.noScorecardRecordReason;
    return { gov, sameName: match?.sameNameCount ?? 0, reason, failure: null };
  } catch (err) {
    const failure = absorb(err, lastTry);
    return { gov: null, sameName: 0, reason: failure.message, failure };
  }
}

/** True when a stored college carries the College Scorecard's figures. */
const holdsGovernmentData = (c: College) =>
  c.scorecardId !== null && isOfficialSource(c.sources.demographics);

/**
 * What frames the question to the AI provider: the government data, else (a cached college's facts are
 * being gathered) what the cache knows. Null for a name nothing is known about.
 */
export async function knownCollege(
  colleges: CollegeRepository,
  { gov, stored }: GovernmentRead,
  { name, scorecardId }: IngestCollegeJob,
): Promise<KnownCollege | null> {
  if (stored) return knownFrom(stored);
  if (gov) {
    return {
      name: gov.name,
      city: gov.demographics.schoolCity,
      state: gov.demographics.schoolState,
      website: gov.website,
    };
  }
  return scorecardId !== undefined ? cachedCollege(colleges, name) : null;
}

/** The cached college (government data already stored), or null when it is not there. */
async function cachedCollege(colleges: CollegeRepository, name: string): Promise<KnownCollege | null> {
  try {
    const college = await colleges.findCollegeByName(name, null);
    return college ? knownFrom(college) : null;
  } catch {
    return null;
  }
}

const knownFrom = (college: College): KnownCollege => ({
  name: college.name,
  city: college.demographics.schoolCity,
  state: college.demographics.schoolState,
  website: officialWebsiteOf(college),
});
