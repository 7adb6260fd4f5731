import {
  getMajorProfile,
  getMajorSuggestions,
  internalListMajorColleges,
  requestMajorProfile,
  MSG,
  normaliseCollegeName,
} from '@ct/contracts';
import { AppError, implement, type Implementation } from '@ct/service-kit';
import type { CollegesDeps } from '../deps.ts';
import { PRIORITY } from '../jobs/requests.ts';
import { COLLEGES_MSG, TRUST_MSG } from '../messages.ts';
import { MAJORS } from './majors.ts';
import { resolveMajor, suggestMajors } from './suggest.ts';

/**
 * "Not found" is remembered for a week, then a new request looks again (colleges publish new pages); one
 * decided while no AI provider was configured is asked again as soon as one is.
 */
const RETRY_NOT_FOUND_AFTER_MS = 7 * 24 * 3600_000;

const notFound = () => new AppError('NOT_FOUND', MSG.majorStatsNotFound);

/** Major suggestions and major profiles; the colleges service registers them. */
export function majorRoutes({
  ctx,
  colleges,
  work,
  share,
  majors: profiles,
}: CollegesDeps): Implementation[] {
  const { config } = ctx;
  // The worker has the same key (the services read the same variables); without it, a "not found" only
  // means the government figures had nothing.
  const aiConfigured = Boolean(config.OPENAI_API_KEY);

  /**
   * A major's profile at a college, for the GET of the spec's call table and the web app's POST alike: a
   * profile not gathered yet is queued, within the student's daily quota and share of the AI allowance,
   * and the answer is 202 until it is done. Filling this shared cache on a miss changes nothing a student
   * owns or another student sees (issue 43), so the GET may do it as a cache would; the GET of a client
   * that follows the call table alone then reaches "Major Stats Found".
   */
  async function profileOf(
    input: { collegeName: string; major: string },
    request: { auth: { uid: string } | null; id: string },
    reply: { status(code: number): unknown },
  ) {
    const major = resolveMajor(input.major);
    if (!major) throw notFound();
    // The dashboard sends the official name: a cached profile is then one indexed read.
    const direct = await profiles.findProfile(`${normaliseCollegeName(input.collegeName)}|${major.cip}`);
    if (direct?.state === 'done' && direct.profile) {
      return { success: true as const, message: MSG.majorStatsFound, data: direct.profile };
    }
    const college = await colleges.findCollegeByName(input.collegeName);
    if (!college) throw notFound();
    const normalizedCollege = normaliseCollegeName(college.name);
    const key = `${normalizedCollege}|${major.cip}`;
    let row = await profiles.findProfile(key);
    if (row?.state === 'done' && row.profile) {
      return { success: true as const, message: MSG.majorStatsFound, data: row.profile };
    }
    // New AI work counts against the student's daily quota; joining a profile under way is free.
    const uid = request.auth?.uid;
    const underWay = row?.state === 'queued' || row?.state === 'running';
    const quota = config.MAJOR_USER_DAILY_QUOTA;
    if (uid && !underWay && !(await profiles.takeQuota(key, uid, quota))) {
      throw new AppError('RATE_LIMITED', TRUST_MSG.majorQuota(quota));
    }
    // New AI work is booked against the student's share of the hourly allowance (issue 35.4): when this
    // hour's share is used up it waits for the first hour with room.
    let waitingUntil: Date | null = null;
    if (uid && !underWay && aiConfigured) {
      const booking = await ctx.db.transaction((tx) => share.book(uid, key, tx));
      if (!booking) throw new AppError('RATE_LIMITED', TRUST_MSG.aiLimit);
      if (booking.waits) waitingUntil = booking.hour;
    }
    const requeued = await profiles.requestProfile(
      { key, collegeName: college.name, normalizedCollege, cip: major.cip, major: major.name },
      {
        retryFailedAfterMs: config.INGESTION_RETRY_FAILED_AFTER_MS,
        retryNotFoundAfterMs: RETRY_NOT_FOUND_AFTER_MS,
        aiConfigured,
      },
    );
    if (requeued) {
      // A student waits for it: ahead of background enrichment (see PRIORITY).
      const delayMs = waitingUntil ? waitingUntil.getTime() - Date.now() : 0;
      await work.jobs.request(work.major, requeued, request.id, PRIORITY.explicit, delayMs);
      row = requeued;
    } else {
      row = await profiles.findProfile(key);
      if (!row) throw new AppError('INTERNAL', COLLEGES_MSG.majorRequestNotRecorded);
      if (row.state === 'done' && row.profile) {
        return { success: true as const, message: MSG.majorStatsFound, data: row.profile };
      }
      if (row.state === 'not_found') throw notFound();
      if (row.state === 'failed') {
        throw new AppError(
          'DEPENDENCY_UNAVAILABLE',
          COLLEGES_MSG.majorGatherFailed(row.major, row.collegeName, row.failureReason),
        );
      }
      // Waiting or running: a job the queue lost is given back by the colleges service's sweep.
    }
    reply.status(202);
    return {
      success: true as const,
      message: waitingUntil
        ? COLLEGES_MSG.majorWaiting(row.major, row.collegeName, waitingUntil.toISOString())
        : COLLEGES_MSG.gatheringMajor(row.major, row.collegeName),
      data: { state: row.state, stage: row.stage },
    };
  }

  return [
    implement(getMajorSuggestions, async (request) => {
      const majors = suggestMajors(request.query.query);
      return {
        success: true,
        message: MSG.suggestionsFound,
        suggestions: majors.map((m) => m.name),
        majors: majors.map(({ cip, title, name }) => ({ cip, title, name })),
      };
    }),

    implement(getMajorProfile, (request, reply) => profileOf(request.query, request, reply)),

    implement(requestMajorProfile, (request, reply) => profileOf(request.body, request, reply)),

    implement(internalListMajorColleges, async (request) => {
      const { name, limit = 50, offset = 0 } = request.query;
      const wanted = name?.trim() ? normaliseCollegeName(name) : '';
      const majors = wanted
        ? MAJORS.filter((m) =>
            [m.name, m.title, ...m.aliases].some((t) => normaliseCollegeName(t).includes(wanted)),
          )
        : MAJORS;
      const byCip = new Map(majors.map((m) => [m.cip, m]));
      const groups = await profiles.collegesByMajor(wanted ? [...byCip.keys()] : null);
      const items = groups
        .flatMap((g) => {
          const m = byCip.get(g.cip);
          return m ? [{ name: m.name, colleges: g.colleges }] : [];
        })
        .sort((a, b) => a.name.localeCompare(b.name));
      return { total: items.length, items: items.slice(offset, offset + limit) };
    }),
  ];
}
