import { INGESTION_QUEUE, MSG, type MajorProfile } from '@ct/contracts';
import { RoleRepository } from '@ct/auth/repositories/roles';
import type { MajorFactsAnswer } from '@ct/colleges/jobs/major';
import { openQueue, type QueueBackend } from '@ct/queue';
import {
  buildCollege,
  buildMajorAnswer,
  createVerifiedUser,
  providerFakes,
  seedColleges,
  TEST_REDIS_URL,
  type ResponsesRequest,
  type TestUser,
} from '@ct/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collegesSuite } from './colleges-helpers.ts';

// Georgia Tech's UNITID in the official Scorecard CSV the fake answers from.
const GT_ID = 139755;
const GT = 'Majors Test Institute of Technology';
const OTHER = 'Majors Second College';
const CS_PAGE = 'https://www.cc.example.edu/undergraduate/computer-science';
const STATS_PAGE = 'https://admission.example.edu/class-profile';

/** A field-of-study answer shaped as the Scorecard API gives it: nested program objects per CIP family. */
const GT_PROGRAMS = [
  {
    code: '1107',
    title: 'Computer Science.',
    credential: { level: 3, title: "Bachelor's Degree" },
    earnings: { '4_yr': { overall_median_earnings: 118_000 } },
    debt: { staff_grad_plus: { all: { eval_inst: { median: 17_500 } } } },
  },
  { code: '1107', title: 'Computer Science.', credential: { level: 5, title: "Master's Degree" } },
  { code: '1419', title: 'Mechanical Engineering.', credential: { level: 3, title: "Bachelor's Degree" } },
];

function csAnswer(overrides: Partial<MajorFactsAnswer> = {}) {
  return buildMajorAnswer({
    averageWeightedGpa: { value: 4.1, scope: 'college', sourceUrl: STATS_PAGE },
    averageSatScore: { value: 1510, scope: 'college', sourceUrl: STATS_PAGE },
    extracurriculars: { value: ['Robotics club', 'Hackathons', 'robotics club'], sourceUrl: CS_PAGE },
    description: { value: 'A program in computing theory and practice.', sourceUrl: CS_PAGE },
    ...overrides,
  });
}

let queue: QueueBackend;
let student: TestUser;
let admin: TestUser;
/** Answers by major name in the question; undefined: not found. */
const answers = new Map<string, Record<string, unknown>>();
const majorCalls = (major: string, college = GT) =>
  ai
    .responses()
    .filter(
      (r) =>
        r.schemaName === 'major_profile' && r.input.includes(`Major: ${major} `) && r.input.includes(college),
    );

const { openai: ai, scorecard } = providerFakes({
  openai: {
    responder: (req: ResponsesRequest) => {
      if (req.schemaName !== 'major_profile') return undefined;
      const major = /^Major: (.+?) \(/.exec(req.input)?.[1] ?? '';
      return { value: answers.get(major) ?? csAnswer({ found: false }) };
    },
  },
  scorecard: {
    extraFields: (id) => (id === GT_ID ? { 'latest.programs.cip_4_digit': GT_PROGRAMS } : undefined),
  },
});
const gw = collegesSuite(() => ({
  OPENAI_API_KEY: ai.apiKey,
  OPENAI_BASE_URL: ai.url,
  SCORECARD_API_KEY: scorecard.apiKey,
  SCORECARD_API_URL: scorecard.url,
  INGESTION_BACKOFF_MS: '200',
}));
beforeAll(async () => {
  queue = openQueue({ url: TEST_REDIS_URL, prefix: gw.prefix });
  await seedColleges(gw.db, [
    buildCollege({ name: GT, scorecardId: GT_ID, aliases: ['MTIT'] }),
    buildCollege({ name: OTHER }),
  ]);
  [student, admin] = await Promise.all([
    createVerifiedUser({ name: 'Major Student' }),
    createVerifiedUser({ name: 'Major Admin' }),
  ]);
  await new RoleRepository(gw.db).grantRole(admin.uid, 'admin', admin.email, 'test');
});
afterAll(() => queue?.close());

type Reply = {
  success: boolean;
  message: string;
  code?: string;
  data?: MajorProfile & { state?: string; stage?: string };
};
/** The student asks for a profile (a write: it may queue the gathering). */
const profile = (collegeName: string, major: string) =>
  gw.api<Reply>('POST', '/api/request-major-profile', {
    token: student.idToken,
    body: { collegeName, major },
  });
/** Where a profile stands (the same code path: a miss is queued as by the request). */
const read = (collegeName: string, major: string) =>
  gw.api<Reply>('GET', '/api/get-major-profile', { token: student.idToken, query: { collegeName, major } });

async function settle(collegeName: string, major: string) {
  await profile(collegeName, major);
  for (let i = 0; i < 300; i++) {
    const r = await read(collegeName, major);
    if (r.status !== 202) return r;
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error(`${major} at ${collegeName} never finished`);
}

describe('major suggestions', () => {
  const suggest = (query: string) =>
    gw.api<{ success: boolean; message: string; suggestions: string[]; majors: Array<{ cip: string }> }>(
      'GET',
      '/api/get-major-suggestions',
      { token: student.idToken, query: { query } },
    );

  it('ranks prefix matches, then word matches, then similar names, at most 10', async () => {
    const r = await suggest('bio');
    expect(r.status).toBe(200);
    expect(r.body.message).toBe(MSG.suggestionsFound);
    expect(r.body.suggestions[0]).toBe('Biology');
    expect(r.body.majors[0]!.cip).toBe('26.0101');
    const marine = r.body.suggestions.indexOf('Marine Biology');
    expect(marine).toBeGreaterThan(0);
    expect(r.body.suggestions.slice(0, marine).every((s) => s.toLowerCase().startsWith('bio'))).toBe(true);
    expect((await suggest('phsyics')).body.suggestions).toEqual(['Physics']);
    expect((await suggest('engineering')).body.suggestions).toHaveLength(10);
  });

  it('gives nothing under 3 characters and refuses anonymous callers', async () => {
    expect((await suggest('bi')).body).toMatchObject({ success: true, suggestions: [] });
    expect((await gw.api('GET', '/api/get-major-suggestions', { query: { query: 'bio' } })).status).toBe(401);
  });
});

describe('major profiles', () => {
  it('gathers a profile once, with its sources and Scorecard figures, then serves it from the cache', async () => {
    answers.set('Computer Science', csAnswer());
    const first = await profile(GT, 'computer science');
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({ success: true, data: { state: 'queued' } });

    const done = await settle(GT, 'Computer Science');
    expect(done.status).toBe(200);
    expect(done.body.message).toBe(MSG.majorStatsFound);
    const p = done.body.data!;
    expect(p).toMatchObject({
      collegeName: GT,
      major: 'Computer Science',
      cip: '11.0701',
      average_weighted_gpa: 4.1,
      average_sat_score: 1510,
      scope: { gpa: 'college', sat: 'college' },
      extracurriculars: ['Robotics club', 'Hackathons'],
      essaytopics: [],
      description: 'A program in computing theory and practice.',
      fieldOfStudy: {
        programOffered: true,
        medianEarnings: 118_000,
        medianDebt: 17_500,
        credential: "Bachelor's Degree",
      },
    });
    expect(p.sources.map((s) => s.url)).toEqual([
      STATS_PAGE,
      CS_PAGE,
      `https://collegescorecard.ed.gov/school/?${GT_ID}`,
    ]);
    expect(Date.parse(p.gatheredAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(majorCalls('Computer Science')).toHaveLength(1);

    // by alias, other spelling, CIP code: the same cached profile, no new call
    for (const [college, major] of [
      [GT, 'Computer Science'],
      ['mtit', 'CS'],
      [GT, '11.0701'],
    ] as const) {
      const again = await profile(college, major);
      expect(again.status).toBe(200);
      expect(again.body.data!.gatheredAt).toBe(p.gatheredAt);
    }
    expect(majorCalls('Computer Science')).toHaveLength(1);
  });

  it('makes one request and one job when many students ask at once', async () => {
    answers.set(
      'Mechanical Engineering',
      csAnswer({ description: { value: 'Machines.', sourceUrl: CS_PAGE } }),
    );
    const replies = await Promise.all(
      Array.from({ length: 20 }, () => profile(GT, 'Mechanical Engineering')),
    );
    for (const r of replies) expect([200, 202]).toContain(r.status);
    const done = await settle(GT, 'Mechanical Engineering');
    expect(done.status).toBe(200);
    const jobs = await queue.list(
      INGESTION_QUEUE,
      ['waiting', 'delayed', 'active', 'completed', 'failed'],
      1000,
    );
    expect(
      jobs.filter((j) => (j.data as { major?: string }).major === 'Mechanical Engineering'),
    ).toHaveLength(1);
    expect(majorCalls('Mechanical Engineering')).toHaveLength(1);
  });

  it('never shows a figure no page states', async () => {
    answers.set(
      'Mathematics',
      csAnswer({
        averageWeightedGpa: { value: 3.8, scope: 'major', sourceUrl: null },
        averageSatScore: { value: 99, scope: 'major', sourceUrl: STATS_PAGE }, // not a SAT score
        essayTopics: { value: ['Why math'], sourceUrl: 'not a url' },
      }),
    );
    const r = await settle(GT, 'Mathematics');
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({
      average_weighted_gpa: null,
      average_sat_score: null,
      essaytopics: [],
    });
    expect(r.body.data!.scope).toBeUndefined();
    expect(r.body.data!.missing).toEqual(
      expect.arrayContaining([
        'average weighted GPA (no page publishes it)',
        'average SAT score (no page publishes it)',
      ]),
    );
  });

  it('answers the spec text when the stats cannot be found, and remembers it', async () => {
    // the AI finds no program and the Scorecard lists none: not found
    const r = await settle(GT, 'Petroleum Engineering');
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ success: false, message: MSG.majorStatsNotFound, code: 'NOT_FOUND' });
    const again = await profile(GT, 'Petroleum Engineering');
    expect(again.status).toBe(404);
    expect(majorCalls('Petroleum Engineering')).toHaveLength(1);

    // a major that is not one of ours, a college that is not cached: no gathering at all
    const before = ai.responses().length;
    for (const [college, major] of [
      [GT, 'Underwater Basket Weaving'],
      ['Nowhere Imaginary College', 'Computer Science'],
    ] as const) {
      const none = await profile(college, major);
      expect(none.status).toBe(404);
      expect(none.body.message).toBe(MSG.majorStatsNotFound);
    }
    expect(ai.responses().length).toBe(before);
  });

  it('says why when the AI provider keeps failing', async () => {
    ai.server.fail('500');
    try {
      expect((await profile(OTHER, 'History')).status).toBe(202);
      const r = await settle(OTHER, 'History');
      expect(r.status).toBe(503);
      expect(r.body.message).toBe(
        `We could not gather the History stats for ${OTHER} right now: The AI provider did not answer (HTTP 500). Please try again in a few minutes.`,
      );
      expect(majorCalls('History', OTHER)).toHaveLength(3); // every try, then the failure
    } finally {
      ai.server.succeed();
    }
  }, 60_000);

  it('refuses bad input with a clear message', async () => {
    const noMajor = await gw.api<Reply>('POST', '/api/request-major-profile', {
      token: student.idToken,
      body: { collegeName: GT },
    });
    expect(noMajor.status).toBe(400);
    expect(noMajor.body.message).toMatch(/major/);
    const empty = await profile(GT, '');
    expect(empty.status).toBe(400);
    expect(
      (await gw.api('GET', '/api/get-major-profile', { query: { collegeName: GT, major: 'CS' } })).status,
    ).toBe(401);
  });

  it('lists majors with the colleges that have a profile for the admin dashboard', async () => {
    const r = await gw.api<{ majorColleges: Array<{ name: string; colleges: string[] }> }>(
      'GET',
      '/api/admin/major-colleges',
      { token: admin.idToken, query: { name: 'computer' } },
    );
    expect(r.status).toBe(200);
    expect(r.body.majorColleges).toEqual([{ name: 'Computer Science', colleges: [GT] }]);
  });
});
