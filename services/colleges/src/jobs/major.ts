import { IngestMajorJob, MajorProfile, type College, type FieldOfStudy, type Source } from '@ct/contracts';
import { defineJob } from '@ct/jobs';
import { ProviderError, type Gathered } from '@ct/providers';
import { PermanentJobError } from '@ct/queue';
import Type, { type Static } from 'typebox';
import { Value } from 'typebox/value';
import type { MajorProfileRepository } from '../majors/repository.ts';
import { asSentence, GATHER_MSG } from '../messages.ts';
import type { CollegeJobDeps } from './worker.ts';

const Str = Type.Union([Type.String(), Type.Null()]);
const Num = Type.Union([Type.Number(), Type.Null()]);
const Scope = Type.Union([Type.Literal('major'), Type.Literal('college'), Type.Null()], {
  description:
    '"major" when the page gives the figure for this major, "college" when it is for all admitted students',
});

/** What the AI provider is asked for: each fact with the page it was read on. */
export const MajorFactsAnswer = Type.Object({
  found: Type.Boolean({
    description: 'false when the college does not offer this major or no page about it can be found',
  }),
  averageWeightedGpa: Type.Object({ value: Num, scope: Scope, sourceUrl: Str }),
  averageSatScore: Type.Object({ value: Num, scope: Scope, sourceUrl: Str }),
  extracurriculars: Type.Object({ value: Type.Array(Type.String()), sourceUrl: Str }),
  essayTopics: Type.Object({ value: Type.Array(Type.String()), sourceUrl: Str }),
  description: Type.Object({ value: Str, sourceUrl: Str }),
});
export type MajorFactsAnswer = Static<typeof MajorFactsAnswer>;

export const MAJOR_INSTRUCTIONS = `You gather facts about one undergraduate major at one college for high-school students.
Search the web. Read the college's own official pages first (the department or program page, admissions statistics,
the Common Data Set); use other reputable pages only when the college publishes nothing on the subject.
For every value give the URL of the exact page you read it on. When no page states a value, give null (or an empty
list). Never estimate, infer, average, round or invent a value.
averageWeightedGpa and averageSatScore are averages of admitted students: give scope "major" when the page gives them
for this major, "college" when only figures for all admitted students are published.
extracurriculars are activities the college or department recommends or offers to students of this major (clubs,
research, competitions). essayTopics are topics the college's own prompts or pages ask applicants to this major to
address. description is a short description of the program in two or three sentences, from its page.
Set found to false if the college does not offer this major.`;

/** Plausible ranges: a figure outside them was misread, and is dropped rather than shown. */
const GPA_RANGE = [1, 5.5] as const;
const SAT_RANGE = [400, 1600] as const;
const MAX_LIST = 12;

const isHttp = (u: string | null | undefined): u is string =>
  // eslint-disable-next-line no-control-regex -- a link with control characters is not a link
  !!u && u.length <= 2000 && /^https?:\/\/[^\s\u0000-\u001f\u007f]+$/i.test(u);

/** Keeps a fact only with the page it came from: what no page states is not shown. */
function sourced<T>(
  fact: { value: T; sourceUrl: string | null },
  empty: T,
): { value: T; url: string | null } {
  return isHttp(fact.sourceUrl) ? { value: fact.value, url: fact.sourceUrl } : { value: empty, url: null };
}

function inRange(v: number | null, [lo, hi]: readonly [number, number]): number | null {
  return v !== null && Number.isFinite(v) && v >= lo && v <= hi ? v : null;
}

/** Text as it can be stored and shown: control characters (which Postgres refuses in jsonb) removed. */
function clean(text: string): string {
  // eslint-disable-next-line no-control-regex -- removing control characters is the point
  return text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '').trim();
}

function cleanList(list: string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of list) {
    const s = clean(raw);
    if (s && !seen.has(s.toLowerCase())) {
      seen.add(s.toLowerCase());
      out.push(s);
    }
  }
  return out.slice(0, MAX_LIST);
}

/** The question put to the AI provider. */
function majorQuestion(
  major: string,
  cip: string | undefined,
  college: College | null,
  name: string,
): string {
  const place = college
    ? [college.demographics.schoolCity, college.demographics.schoolState].filter(Boolean).join(', ')
    : '';
  const site = college?.links[0];
  return (
    `Major: ${major}${cip ? ` (CIP 2020 code ${cip})` : ''}.\n` +
    `College: ${college?.name ?? name}${place ? `, ${place}` : ''}${site ? ` (website ${site})` : ''}.`
  );
}

// ---- Scorecard field of study ----

function at(obj: unknown, path: string): unknown {
  if (!obj || typeof obj !== 'object') return undefined;
  const rec = obj as Record<string, unknown>;
  // The API answers nested objects or flat dotted keys, depending on the fields asked for.
  if (path in rec) return rec[path];
  const parts = path.split('.');
  for (let i = parts.length - 1; i > 0; i--) {
    const head = parts.slice(0, i).join('.');
    if (head in rec) return at(rec[head], parts.slice(i).join('.'));
  }
  return undefined;
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const firstNum = (obj: unknown, paths: string[]): number | null => {
  for (const p of paths) {
    const v = num(at(obj, p));
    if (v !== null) return v;
  }
  return null;
};

export const PROGRAMS_FIELD = 'latest.programs.cip_4_digit';
const BACHELORS = 3;

/**
 * The College Scorecard's field-of-study record for the major's 4-digit CIP family at the college
 * (bachelor's level): whether it is offered, median earnings and median debt. Null when the Scorecard has
 * no field-of-study data for the college at all (unknown, not "not offered").
 */
export function fieldOfStudyFrom(school: unknown, cip: string): FieldOfStudy | null {
  const programs = at(school, PROGRAMS_FIELD);
  if (!Array.isArray(programs) || !programs.length) return null;
  const family = cip.replace('.', '').slice(0, 4);
  const matches = programs.filter((p) => String(at(p, 'code') ?? '').replace('.', '') === family);
  const program =
    matches.find((p) => num(at(p, 'credential.level')) === BACHELORS) ??
    matches.find((p) => (num(at(p, 'credential.level')) ?? 0) < BACHELORS);
  if (!program) {
    return {
      programOffered: false,
      medianEarnings: null,
      medianDebt: null,
      programTitle: null,
      credential: null,
    };
  }
  const title = at(program, 'title');
  const credential = at(program, 'credential.title');
  return {
    programOffered: true,
    medianEarnings: firstNum(program, [
      'earnings.4_yr.overall_median_earnings',
      'earnings.highest.3_yr.overall_median_earnings',
      'earnings.1_yr.overall_median_earnings',
      'earnings.highest.2_yr.overall_median_earnings',
      'earnings.highest.1_yr.overall_median_earnings',
    ]),
    medianDebt: firstNum(program, [
      'debt.staff_grad_plus.all.eval_inst.median',
      'debt.staff_grad_plus.all.all_inst.median',
      'debt.median_debt',
    ]),
    programTitle: typeof title === 'string' ? title.replace(/\.$/, '') : null,
    credential: typeof credential === 'string' ? credential : null,
  };
}

/**
 * Gathers one major's profile at one college: admissions figures, activities, essay topics and a
 * description from the college's pages through the AI provider (each kept only with the page it was read
 * on), and the College Scorecard's field-of-study figures where they exist. Reports to the colleges
 * service, which caches the profile. Nothing found anywhere is "not found"; a provider that keeps failing
 * is a failure with a reason a student can read.
 */
export const majorJob = defineJob(IngestMajorJob, async (job, deps: CollegeJobDeps) => {
  const { key, collegeName, major, cip } = job.data;
  const { majors, log } = deps;
  const lastTry = job.attemptsMade + 1 >= job.attempts;
  const report = async (update: Parameters<MajorProfileRepository['recordProgress']>[1]) => {
    await majors.recordProgress(key, update, { aiConfigured: deps.ai !== null });
  };

  try {
    await report({ state: 'running', stage: 'ai-research' });
    const college: College | null = await deps.colleges.findCollegeByName(collegeName, null);
    if (!college) {
      await report({ state: 'not_found', reason: GATHER_MSG.majorCollegeGone(collegeName) });
      return { found: false };
    }

    // 1. The college's pages, through the AI provider
    let facts: Gathered<MajorFactsAnswer> | null = null;
    const missing: string[] = [];
    if (deps.ai) {
      const ai = deps.ai;
      facts = await ai.gatherJson({
        instructions: MAJOR_INSTRUCTIONS,
        input: majorQuestion(major, cip, college, collegeName),
        schema: MajorFactsAnswer,
        schemaName: 'major_profile',
      });
    } else {
      missing.push(GATHER_MSG.noMajorAiReason);
    }

    // 2. Government field-of-study data
    let fieldOfStudy: FieldOfStudy | null = null;
    if (deps.scorecard && college.scorecardId !== null && cip) {
      await report({ state: 'running', stage: 'government-data' });
      const [scorecard, id] = [deps.scorecard, college.scorecardId];
      try {
        const school = await scorecard.getSchoolFields(id, `id,${PROGRAMS_FIELD}`);
        fieldOfStudy = school ? fieldOfStudyFrom(school, cip) : null;
      } catch (err) {
        if (!(err instanceof ProviderError)) throw err;
        // Field-of-study figures are a bonus: their absence is named, not fatal.
        missing.push(GATHER_MSG.fieldOfStudyFailedReason(err.message));
      }
    } else if (!deps.scorecard) {
      missing.push(GATHER_MSG.noFieldOfStudyKeyReason);
    }

    // 3. Keep only what a page states
    const gatheredAt = new Date().toISOString();
    const answer = facts?.value.found ? facts.value : null;
    const gpa = answer ? sourced(answer.averageWeightedGpa, null) : { value: null, url: null };
    const sat = answer ? sourced(answer.averageSatScore, null) : { value: null, url: null };
    const activities = answer ? sourced(answer.extracurriculars, [] as string[]) : { value: [], url: null };
    const topics = answer ? sourced(answer.essayTopics, [] as string[]) : { value: [], url: null };
    const description = answer ? sourced(answer.description, null) : { value: null, url: null };
    const gpaValue = inRange(gpa.value, GPA_RANGE);
    const satValue = inRange(sat.value === null ? null : Math.round(sat.value), SAT_RANGE);
    const profile: MajorProfile = {
      collegeName: college.name,
      major,
      cip: cip ?? null,
      average_weighted_gpa: gpaValue,
      average_sat_score: satValue,
      extracurriculars: cleanList(activities.value),
      essaytopics: cleanList(topics.value),
      description: description.value ? clean(description.value) || null : null,
      sources: [],
      gatheredAt,
    };
    const scope: NonNullable<MajorProfile['scope']> = {};
    if (gpaValue !== null) scope.gpa = answer?.averageWeightedGpa.scope === 'major' ? 'major' : 'college';
    if (satValue !== null) scope.sat = answer?.averageSatScore.scope === 'major' ? 'major' : 'college';
    if (scope.gpa || scope.sat) profile.scope = scope;
    if (fieldOfStudy) profile.fieldOfStudy = fieldOfStudy;

    const urls = [
      gpaValue !== null ? gpa.url : null,
      satValue !== null ? sat.url : null,
      profile.extracurriculars.length ? activities.url : null,
      profile.essaytopics.length ? topics.url : null,
      profile.description ? description.url : null,
    ];
    const titles = new Map((facts?.sources ?? []).map((s) => [s.url, s.title]));
    const sources = new Map<string, Source>();
    for (const url of urls) {
      if (url && !sources.has(url)) {
        const title = titles.get(url);
        const readable = title ? clean(title).slice(0, 500) : '';
        sources.set(url, { url, ...(readable ? { title: readable } : {}), gatheredAt });
      }
    }
    if (fieldOfStudy && college.scorecardId !== null) {
      const url = `https://collegescorecard.ed.gov/school/?${college.scorecardId}`;
      sources.set(url, { url, title: 'College Scorecard (U.S. Department of Education)', gatheredAt });
    }
    profile.sources = [...sources.values()];
    if (deps.ai && answer) {
      if (profile.average_weighted_gpa === null) missing.push('average weighted GPA (no page publishes it)');
      if (profile.average_sat_score === null) missing.push('average SAT score (no page publishes it)');
    }
    if (missing.length) profile.missing = missing;

    const anything =
      profile.average_weighted_gpa !== null ||
      profile.average_sat_score !== null ||
      profile.extracurriculars.length > 0 ||
      profile.essaytopics.length > 0 ||
      profile.description !== null ||
      fieldOfStudy?.programOffered === true;
    if (!anything) {
      const why =
        facts && !facts.value.found
          ? GATHER_MSG.noMajorOnPages(major, college.name)
          : fieldOfStudy?.programOffered === false
            ? GATHER_MSG.noMajorInScorecard(major, college.name)
            : deps.ai
              ? GATHER_MSG.noMajorFigures(major, college.name)
              : GATHER_MSG.noMajorAiProvider(major, college.name);
      await report({ state: 'not_found', reason: why });
      log.info({ key }, 'major profile not found');
      return { found: false };
    }
    if (!Value.Check(MajorProfile, profile)) {
      const first = [...Value.Errors(MajorProfile, profile)][0];
      throw new PermanentJobError(GATHER_MSG.majorFailedChecks(first?.instancePath ?? ''));
    }
    await report({ state: 'running', stage: 'saving' });
    await report({ state: 'done', profile });
    log.info({ key, sources: profile.sources.length }, 'major profile gathered');
    return { found: true };
  } catch (err) {
    // Handed back on shutdown: another worker runs it again; nothing to report.
    if (job.signal?.aborted) throw err;
    const permanent = err instanceof PermanentJobError || (err instanceof ProviderError && !err.retryable);
    if (!permanent && !lastTry) throw err;
    const reason =
      err instanceof PermanentJobError
        ? err.message
        : err instanceof ProviderError
          ? asSentence(err.message)
          : GATHER_MSG.majorOurError;
    try {
      await report({ state: 'failed', reason });
    } catch (reportErr) {
      log.warn({ err: reportErr, key }, 'could not report a failed major profile');
    }
    throw err instanceof PermanentJobError ? err : new PermanentJobError(reason);
  }
});
