// A major looked up while no AI key is configured is "not found" only until a key is: the next request
// after the restart with a key gathers it, instead of answering "not found" for the rest of the week.
import { MSG, type MajorProfile } from '@ct/contracts';
import {
  buildCollege,
  buildMajorAnswer,
  createVerifiedUser,
  seedColleges,
  startOpenAiFake,
  startTestGateway,
  type OpenAiFake,
  type ResponsesRequest,
  type TestGateway,
  type TestUser,
} from '@ct/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const COLLEGE = 'Keyless Majors College';
const PAGE = 'https://www.keyless.example.edu/history';

let ai: OpenAiFake;
let withoutKey: TestGateway;
let withKey: TestGateway | undefined;
let student: TestUser;

type Reply = { success: boolean; message: string; code?: string; data?: MajorProfile & { state?: string } };

async function settle(gw: TestGateway, major: string) {
  // Asked for (a write), then read until it is no longer being gathered.
  await gw.api('POST', '/api/request-major-profile', {
    token: student.idToken,
    body: { collegeName: COLLEGE, major },
  });
  for (let i = 0; i < 300; i++) {
    const r = await gw.api<Reply>('GET', '/api/get-major-profile', {
      token: student.idToken,
      query: { collegeName: COLLEGE, major },
    });
    if (r.status !== 202) return r;
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error(`${major} never finished`);
}

beforeAll(async () => {
  ai = await startOpenAiFake({
    responder: (req: ResponsesRequest) =>
      req.schemaName === 'major_profile'
        ? {
            value: buildMajorAnswer({
              // The college's pages show no Nursing program; History is there.
              found: !req.input.includes('Major: Nursing '),
              extracurriculars: { value: ['History club'], sourceUrl: PAGE },
              description: { value: 'The study of the past.', sourceUrl: PAGE },
            }),
          }
        : undefined,
  });
  // No key anywhere: neither the worker nor the colleges service has one.
  for (const k of ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'SCORECARD_API_KEY']) delete process.env[k];
  withoutKey = await startTestGateway({ queue: 'memory', env: { INGESTION_BACKOFF_MS: '100' } });
  await seedColleges(withoutKey.db, [buildCollege({ name: COLLEGE })]);
  student = await createVerifiedUser({ name: 'Keyless Student' });
});
afterAll(async () => {
  await withKey?.close();
  await withoutKey?.close();
  await ai?.close();
});

describe('a major looked up with no AI key', () => {
  it('is "not found" while no key is configured, and gathered on the first request once one is', async () => {
    const first = await settle(withoutKey, 'History');
    expect(first.status).toBe(404);
    expect(first.body.message).toBe(MSG.majorStatsNotFound);
    expect(ai.responses()).toHaveLength(0);
    // Asked again without a key: still the same answer, and no new work.
    expect((await settle(withoutKey, 'History')).status).toBe(404);

    // The operator configures a key and restarts: same database, a process that has the key.
    withKey = await startTestGateway({
      queue: 'memory',
      env: {
        DATABASE_URL: withoutKey.database!.url,
        OPENAI_API_KEY: ai.apiKey,
        OPENAI_BASE_URL: ai.url,
        OPENAI_REQUESTS_PER_MINUTE: '100000',
        INGESTION_BACKOFF_MS: '100',
      },
    });
    const gathered = await settle(withKey, 'History');
    expect(gathered.status).toBe(200);
    expect(gathered.body.message).toBe(MSG.majorStatsFound);
    expect(gathered.body.data?.extracurriculars).toEqual(['History club']);
    expect(ai.responses().filter((r) => r.schemaName === 'major_profile')).toHaveLength(1);
  }, 60_000);

  it('keeps a "not found" decided with a key for the week', async () => {
    const asked = () => ai.responses().filter((r) => r.input.includes('Major: Nursing ')).length;
    const r = await settle(withKey!, 'Nursing');
    expect(r.status).toBe(404);
    expect(asked()).toBe(1);
    expect((await settle(withKey!, 'Nursing')).status).toBe(404);
    expect(asked()).toBe(1);
  }, 60_000);
});
