import {
  CollegeIngestedEvent,
  eventQueueName,
  INGESTION_QUEUE,
  type College,
  type IngestionRequest,
  type UnverifiedFact,
} from '@ct/contracts';
import type { QueueBackend } from '@ct/queue';
import {
  buildCollege,
  buildFactsAnswer,
  createVerifiedUser,
  providerFakes,
  seedColleges,
  type TestUser,
} from '@ct/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allJobs, collegesSuite, eventually, queueOf } from './colleges-helpers.ts';

let student: TestUser;
let queue: QueueBackend;

type Body<T> = { success: boolean; message: string; data: T; code?: string };

/** The college facts a real model would find on Harvard's pages (the fake answers them). */
const HARVARD_FACTS = buildFactsAnswer({
  officialName: 'Harvard University',
  city: 'Cambridge',
  state: 'MA',
  website: 'https://www.harvard.edu/',
  aliases: { value: ['Harvard College'], sourceUrl: 'https://college.harvard.edu/' },
  links: {
    value: ['https://college.harvard.edu/admissions'],
    sourceUrl: 'https://college.harvard.edu/admissions',
  },
  deadlines: {
    value: [
      { type: 'Restrictive Early Action', date: '2026-11-01' },
      { type: 'Regular Decision', date: '2027-01-01' },
    ],
    sourceUrl: 'https://college.harvard.edu/admissions/apply/application-timeline',
  },
  essayPrompts: {
    value: ['Briefly describe an intellectual experience that was important to you.'],
    sourceUrl: 'https://college.harvard.edu/admissions/apply/first-year-applicants',
  },
  requirements: {
    value: { transcripts: 'Required', SAT_ACT: 'Required', teacherRecommendations: 'Two teacher letters' },
    sourceUrl: 'https://college.harvard.edu/admissions/apply/first-year-applicants',
  },
  admissionStatistics: {
    value: { overallAcceptanceRate: 0.036, year: 'Class of 2029' },
    sourceUrl: 'https://college.harvard.edu/admissions/admissions-statistics',
  },
  admittedStudentProfile: {
    value: { GPA: null, SAT: '1500-1580', Major: null },
    sourceUrl: 'https://college.harvard.edu/admissions/admissions-statistics',
  },
});

const { scorecard, openai, providerEnv } = providerFakes({
  openai: { responder: (req) => (req.input.includes('Harvard') ? { value: HARVARD_FACTS } : undefined) },
});
const gw = collegesSuite(() => ({
  ...providerEnv(),
  INGESTION_BACKOFF_MS: '50',
}));
beforeAll(async () => {
  queue = queueOf(gw);
  student = await createVerifiedUser({ name: 'Student' });
});
afterAll(() => queue?.close());

const search = (name: string) =>
  gw.api<Body<College> & { unverified?: UnverifiedFact[] }>('GET', '/api/search-college', {
    token: student.idToken,
    query: { name },
  });
const add = (name: string) =>
  gw.api<Body<IngestionRequest>>('POST', '/api/add-college', { token: student.idToken, body: { name } });
const status = (name: string) =>
  gw.api<Body<IngestionRequest>>('GET', '/api/ingestion-status', { token: student.idToken, query: { name } });
const untilFinished = (name: string) =>
  eventually(
    async () => {
      const r = await status(name);
      return r.body.data && ['done', 'failed'].includes(r.body.data.state) ? r.body.data : undefined;
    },
    30_000,
    `ingestion of ${name}`,
  );

describe('search and add a college', () => {
  it('tells a student a college is not cached yet with a clear 404', async () => {
    const r = await search('Nowhere Imaginary College');
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({
      success: false,
      code: 'NOT_FOUND',
      message: 'We have no data for "Nowhere Imaginary College" yet. Use Add College to gather it.',
    });
  });

  it('requires a signed-in student', async () => {
    expect(
      (await gw.api('GET', '/api/search-college', { query: { name: 'Harvard University' } })).status,
    ).toBe(401);
    expect((await gw.api('POST', '/api/add-college', { body: { name: 'Harvard University' } })).status).toBe(
      401,
    );
  });

  it('cache miss → 202 → job → worker → search-college returns the mapped document', async () => {
    expect((await search('harvard university')).status).toBe(404);
    const added = await add('harvard university');
    expect(added.status).toBe(202);
    expect(added.body.data).toMatchObject({
      key: 'harvard university',
      state: 'queued',
      stage: 'queued',
      failureReason: null,
    });

    const done = await untilFinished('Harvard University');
    expect(done).toMatchObject({
      state: 'done',
      stage: 'done',
      collegeName: 'Harvard University',
      attempts: 1,
    });

    const found = await search('HARVARD UNIVERSITY!');
    expect(found.status).toBe(200);
    expect(found.body.message).toBe('College found');
    const c = found.body.data;
    const row = scorecard.row(166027)!;
    expect(c.name).toBe('Harvard University');
    expect(c.scorecardId).toBe(166027);
    // Government data, from the official CSV row the Scorecard fake answers with
    expect(c.demographics.schoolCity).toBe(row.CITY);
    expect(c.demographics.schoolState).toBe(row.STABBR);
    expect(c.demographics.schoolSize).toBe(Number(row.UGDS));
    expect(c.demographics.admissionRate).toBe(Number(row.ADM_RATE));
    expect(c.demographics.finance.netPrice0to30000).toBe(Number(row.NPT41_PRIV));
    expect(c.demographics.finance.medianEarnings).toBe(Number(row.MD_EARN_WNE_P10));
    expect(c.sources.demographics).toMatchObject({ url: 'https://collegescorecard.ed.gov/school/?166027' });
    // College facts, each with its page and the date gathered
    expect(c.info.deadlines).toEqual(HARVARD_FACTS.deadlines.value);
    expect(c.sources['info.deadlines']).toMatchObject({ url: HARVARD_FACTS.deadlines.sourceUrl });
    expect(Date.parse(c.sources['info.deadlines']!.gatheredAt)).toBeGreaterThan(Date.now() - 600_000);
    expect(c.info.admissionStatistics).toEqual({ overallAcceptanceRate: 0.036, year: 'Class of 2029' });
    expect(c.info.admittedStudentProfile).toEqual({ GPA: null, SAT: '1500-1580', Major: null });
    // A name from an AI answer waits for an admin: shown to the student who asked, marked unverified.
    expect(c.aliases).not.toContain('Harvard College');
    expect(found.body.unverified).toEqual([
      expect.objectContaining({ kind: 'aliases', items: expect.arrayContaining(['Harvard College']) }),
    ]);
    // What could not be found is said, never made up
    expect(c.info.tips).toEqual([]);
    expect(c.missing).toContain("Tips (not found on the college's pages)");
    expect(c.missing).toContain('Average family income (not published by the College Scorecard)');
    expect(c.demographics.finance.avgFamilyIncome).toBeNull();

    // The name as typed finds it too (the client searches again after the overlay)
    expect((await search('harvard university')).status).toBe(200);
    // The AI provider was asked with web search and a strict schema
    const asked = openai.responses().find((r) => r.input.includes('Harvard'))!;
    expect(asked.schemaName).toBe('college_facts');
    expect(asked.schema).toMatchObject({ type: 'object', additionalProperties: false });
    expect(asked.tools).toEqual([{ type: 'web_search' }]);
  });

  it('announces college.ingested to the services that subscribe', async () => {
    const events = await eventually(
      async () => {
        const jobs = await allJobs(queue, eventQueueName('essays'));
        const mine = jobs.filter((j) => (j.data as { name?: string }).name === 'Harvard University');
        return mine.length ? mine : undefined;
      },
      10_000,
      'college.ingested',
    );
    expect(events[0]!.name).toBe(CollegeIngestedEvent.name);
    expect(events[0]!.data).toMatchObject({
      name: 'Harvard University',
      deadlines: HARVARD_FACTS.deadlines.value,
      essayPrompts: HARVARD_FACTS.essayPrompts.value,
    });
  });

  it('answers 200 with a finished request when the college is cached already', async () => {
    const r = await add('Harvard University');
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ state: 'done', collegeName: 'Harvard University' });
  });

  it('refuses a name with no letters or digits, changing nothing', async () => {
    const r = await add('!!!');
    expect(r.status).toBe(400);
    expect(r.body.message).toBe('Please enter the name of a college.');
    const rows = await gw.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM colleges.ingestion_request WHERE key = ''`,
    );
    expect(rows.rows[0]!.n).toBe(0);
  });

  it('says when nobody asked for a college yet', async () => {
    const r = await status('Some Unasked College');
    expect(r.status).toBe(404);
    expect(r.body.message).toBe(
      'Nobody has asked for "Some Unasked College" yet. Use Add College to gather it.',
    );
  });

  it('50 concurrent add-college of one name make one request row and one job', async () => {
    const name = 'Massachusetts Institute of Technology';
    // The job waits at the Scorecard call until every request is in, so all 50 meet it unfinished.
    scorecard.server.hold();
    let results: Awaited<ReturnType<typeof add>>[];
    try {
      results = await Promise.all(Array.from({ length: 50 }, () => add(name)));
    } finally {
      scorecard.server.release();
    }
    expect(results.every((r) => r.status === 202 || r.status === 200)).toBe(true);
    expect(new Set(results.map((r) => r.body.data.key))).toEqual(
      new Set(['massachusetts institute of technology']),
    );
    const rows = await gw.db.query<{ n: number; requests: number }>(
      `SELECT count(*)::int AS n, sum(request_count)::int AS requests FROM colleges.ingestion_request
       WHERE key = 'massachusetts institute of technology'`,
    );
    expect(rows.rows[0]).toEqual({ n: 1, requests: 50 });
    await untilFinished(name);
    const jobs = (await allJobs(queue, INGESTION_QUEUE)).filter(
      (j) => (j.data as { key?: string }).key === 'massachusetts institute of technology',
    );
    expect(jobs).toHaveLength(1);
    const searches = scorecard.server.requests.filter((r) => r.query.get('school.name') === name);
    expect(searches).toHaveLength(1);
    expect((await search('MIT')).body.data.name).toBe(name);
  });
});

describe('suggestions', () => {
  beforeAll(async () => {
    await seedColleges(gw.db, [
      buildCollege({ name: 'Zephyr State University', aliases: ['ZSU'] }),
      buildCollege({ name: 'Zephyr College of Art' }),
      buildCollege({ name: 'Northern Zephyrland Institute' }),
      buildCollege({ name: 'Quillfeather Polytechnic', aliases: ['Zephyr Tech'] }),
    ]);
  });
  const suggest = (query: string) =>
    gw.api<{ success: boolean; message: string; suggestions: string[] }>(
      'GET',
      '/api/get-college-suggestions',
      {
        token: student.idToken,
        query: { query },
      },
    );

  it('lists names and aliases starting with the text first, then similar names', async () => {
    const r = await suggest('zephyr');
    expect(r.body.message).toBe('Suggestions found');
    expect(r.body.suggestions.slice(0, 3)).toEqual([
      'Zephyr College of Art',
      'Zephyr State University',
      'Quillfeather Polytechnic',
    ]);
    expect(r.body.suggestions).toContain('Northern Zephyrland Institute');
  });

  it('finds a college by the start of an alias and forgives a typo', async () => {
    expect((await suggest('zsu')).body.suggestions).toEqual(['Zephyr State University']);
    expect((await suggest('Quilfeather Polytechnik')).body.suggestions).toContain('Quillfeather Polytechnic');
  });

  it('answers nothing under 3 characters and at most 10 names', async () => {
    expect((await suggest('ze')).body.suggestions).toEqual([]);
    await seedColleges(
      gw.db,
      Array.from({ length: 14 }, (_, i) => buildCollege({ name: `Yarrow Academy ${i + 1}` })),
    );
    const r = await suggest('yarrow');
    expect(r.body.suggestions).toHaveLength(10);
  });
});
