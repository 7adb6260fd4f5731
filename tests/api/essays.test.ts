import fs from 'node:fs';
import {
  CollegeIngestedEvent,
  EVENT_SUBSCRIBERS,
  MSG,
  type CollegeIngestedEvent as Ingested,
} from '@ct/contracts';
import { RoleRepository } from '@ct/auth/repositories/roles';
import { EventBus, openQueue, type QueueBackend } from '@ct/queue';
import {
  buildCollege,
  createVerifiedUser,
  ESSAY_PROMPTS_JSON,
  gatewaySuite,
  seedColleges,
  TEST_REDIS_URL,
  type TestUser,
} from '@ct/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** The operator's prompts file the tests give the essays service (tests/fixtures: texts written for tests). */
const PROMPTS_FILE = JSON.parse(fs.readFileSync(ESSAY_PROMPTS_JSON, 'utf8')) as {
  common_app: { prompts: Array<{ text: string }> };
  uc_piq: { prompts: Array<{ text: string }> };
};
const UC_PROMPTS = PROMPTS_FILE.uc_piq.prompts.map((p) => p.text);

let queue: QueueBackend;
let student: TestUser;
let admin: TestUser;

const ESSAY_WORDS = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');

const { gw, openai: ai } = gatewaySuite({ openai: {}, env: { OPENAI_MODEL: 'fake-model' } });
beforeAll(async () => {
  queue = openQueue({ url: TEST_REDIS_URL, prefix: gw.prefix });
  [student, admin] = await Promise.all([
    createVerifiedUser({ name: 'Essay Student' }),
    createVerifiedUser({ name: 'Essay Admin' }),
  ]);
  await new RoleRepository(gw.db).grantRole(admin.uid, 'admin', admin.email, 'test');
});
afterAll(() => queue?.close());

const get = (path: string, query: Record<string, unknown> = {}, token = student.idToken) =>
  gw.api<Record<string, unknown>>('GET', `/api${path}`, { token, query });

async function publishIngested(event: Partial<Ingested> & { name: string }, id: string): Promise<void> {
  const payload: Ingested = {
    aliases: [],
    deadlines: [],
    essayPrompts: [],
    ingestedAt: new Date().toISOString(),
    ...event,
  };
  await new EventBus(queue, EVENT_SUBSCRIBERS).publish(CollegeIngestedEvent, payload, id);
}

async function until<T>(fn: () => Promise<T>, ok: (v: T) => boolean, what: string): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const v = await fn();
    if (ok(v)) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`gave up waiting for ${what}`);
}

describe('essay prompts', () => {
  it('lists the Common App and UC prompts from the operator file, with word limits and sources', async () => {
    const colleges = await get('/get-colleges-essays');
    expect(colleges.status).toBe(200);
    expect(colleges.body).toMatchObject({ success: true });
    expect((colleges.body.colleges as string[]).slice(0, 2)).toEqual([
      'Common App',
      'University of California',
    ]);

    const ca = await get('/get-prompts', { collegeName: 'common app' });
    expect(ca.status).toBe(200);
    const prompts = ca.body.prompts as string[];
    expect(prompts).toHaveLength(8); // 7 essay prompts and the optional challenges question
    expect(prompts.slice(0, 7)).toEqual(PROMPTS_FILE.common_app.prompts.map((p) => p.text));
    const details = ca.body.details as Array<Record<string, unknown>>;
    expect(details[0]).toMatchObject({
      wordLimit: 650,
      wordMin: 250,
      category: 'identity',
      sourceUrl: 'https://www.commonapp.org/apply/essay-prompts',
    });
    expect(details[7]).toMatchObject({ wordLimit: 250, category: 'challenge' });
    expect(details[7]!.note).toMatch(/may differ slightly/);

    const uc = await get('/get-prompts', { collegeName: 'University of California' });
    expect(uc.body.prompts).toHaveLength(8);
    expect((uc.body.details as Array<{ wordLimit: number }>).every((d) => d.wordLimit === 350)).toBe(true);
  });

  it('keeps the prompts of every ingested college, replacing them when it is gathered again', async () => {
    // The colleges service resolves the names typed here (its one resolver): the colleges are listed there.
    await seedColleges(gw.db, [
      buildCollege({ name: 'Prompt Test College', aliases: ['PTC'] }),
      buildCollege({ name: 'Marker College' }),
    ]);
    await publishIngested(
      {
        name: 'Prompt Test College',
        aliases: ['PTC'],
        essayPrompts: ['Why do you want to attend Prompt Test College?', 'Describe your community.'],
        essayPromptMeta: [{ prompt: 'Why do you want to attend Prompt Test College?', wordLimit: 200 }],
      },
      'ptc-1',
    );
    const first = await until(
      () => get('/get-prompts', { collegeName: 'Prompt Test College' }),
      (r) => r.status === 200,
      'the ingested prompts',
    );
    expect(first.body.prompts).toEqual([
      'Why do you want to attend Prompt Test College?',
      'Describe your community.',
    ]);
    expect(first.body.details).toMatchObject([
      { wordLimit: 200, category: 'why-us' },
      { wordLimit: null, category: 'community' },
    ]);
    expect((await get('/get-colleges-essays')).body.colleges).toContain('Prompt Test College');
    // an alias finds the same college, through the colleges service's resolver
    expect((await get('/get-prompts', { collegeName: 'ptc' })).status).toBe(200);

    await publishIngested(
      { name: 'Prompt Test College', essayPrompts: ['Tell us about an activity you love.'] },
      'ptc-2',
    );
    await until(
      () => get('/get-prompts', { collegeName: 'Prompt Test College' }),
      (r) => JSON.stringify(r.body.prompts) === JSON.stringify(['Tell us about an activity you love.']),
      'the replaced prompts',
    );

    // a gathering that found no prompts keeps what an earlier one found
    await publishIngested({ name: 'Prompt Test College', essayPrompts: [] }, 'ptc-3');
    await publishIngested({ name: 'Marker College', essayPrompts: ['Marker prompt?'] }, 'marker');
    await until(
      () => get('/get-prompts', { collegeName: 'Marker College' }),
      (r) => r.status === 200,
      'the marker event (events are handled in order)',
    );
    expect((await get('/get-prompts', { collegeName: 'Prompt Test College' })).body.prompts).toEqual([
      'Tell us about an activity you love.',
    ]);
  });

  it('answers the spec texts when a college or prompt has nothing', async () => {
    const none = await get('/get-prompts', { collegeName: 'No Such College Anywhere' });
    expect(none.status).toBe(404);
    expect(none.body).toEqual({ success: false, message: MSG.noPromptsFound, code: 'NOT_FOUND' });

    const noCollege = await get('/get-essays', {
      collegeName: 'No Such College Anywhere',
      prompt: 'Anything?',
    });
    expect(noCollege.status).toBe(404);
    expect(noCollege.body.message).toBe(MSG.noPromptsFound);

    const wrongPrompt = await get('/get-essays', {
      collegeName: 'Common App',
      prompt: 'A prompt it never asked',
    });
    expect(wrongPrompt.status).toBe(404);
    expect(wrongPrompt.body).toEqual({ success: false, message: MSG.noEssaysFound, code: 'NOT_FOUND' });
  });

  it('refuses bad input with a clear message and anonymous callers', async () => {
    const missing = await get('/get-prompts');
    expect(missing.status).toBe(400);
    expect(missing.body.message).toMatch(/collegeName/);
    const huge = await get('/get-essays', { collegeName: 'Common App', prompt: 'x'.repeat(5001) });
    expect(huge.status).toBe(400);
    const anon = await gw.api('GET', '/api/get-colleges-essays');
    expect(anon.status).toBe(401);
  });
});

describe('example essays', () => {
  const UC_PROMPT = UC_PROMPTS[6]!; // the community question

  it('writes examples once per prompt with the AI provider, then serves them from the cache', async () => {
    ai.setResponder((req) =>
      req.schemaName === 'example_essays'
        ? {
            value: {
              essays: [
                { title: 'The Library Shelf', body: `I fixed a shelf. ${ESSAY_WORDS(120)}` },
                { title: 'Too Long', body: ESSAY_WORDS(900) }, // over the 350-word limit: dropped
                { title: 'Saturday Tutoring', body: `Every Saturday I tutor. ${ESSAY_WORDS(200)}` },
              ],
            },
          }
        : undefined,
    );
    const before = ai.responses().length;
    const q = { collegeName: 'University of California', prompt: UC_PROMPT };
    // many students at once: one request, one job, one call
    const firsts = await Promise.all(Array.from({ length: 5 }, () => get('/get-essays', q)));
    for (const r of firsts) {
      expect([200, 202]).toContain(r.status);
      if (r.status === 202) expect(r.body).toMatchObject({ success: true, essays: [] });
    }
    const done = await until(
      () => get('/get-essays', q),
      (r) => r.status === 200,
      'the examples',
    );
    expect(done.body.essays).toHaveLength(2);
    expect((done.body.essays as string[])[0]).toMatch(/^I fixed a shelf\./);
    const examples = done.body.examples as Array<Record<string, unknown>>;
    expect(examples.map((e) => e.title)).toEqual(['The Library Shelf', 'Saturday Tutoring']);
    for (const e of examples) {
      expect(e.origin).toBe('ai');
      expect(e.label).toMatch(/not a real applicant's essay/);
    }
    const asked = ai.responses().slice(before);
    expect(asked).toHaveLength(1);
    expect(asked[0]!.input).toContain(UC_PROMPT);
    expect(asked[0]!.input).toContain('350 words');
    expect(asked[0]!.tools).toEqual([]); // writing needs no web search

    const again = await get('/get-essays', q);
    expect(again.status).toBe(200);
    expect(ai.responses().length).toBe(before + 1);
  });

  it('says why when the AI provider keeps failing (the page shows its error text)', async () => {
    ai.server.fail('500');
    try {
      // The open prompt: ask with its exact text.
      const details = (await get('/get-prompts', { collegeName: 'Common App' })).body.details as Array<{
        prompt: string;
        category: string;
      }>;
      const q = { collegeName: 'Common App', prompt: details.find((d) => d.category === 'open')!.prompt };
      const first = await get('/get-essays', q);
      expect(first.status).toBe(202);
      const failed = await until(
        () => get('/get-essays', q),
        (r) => r.status !== 202,
        'the final failure',
      );
      expect(failed.status).toBe(503);
      expect(failed.body.message).toBe(
        'We could not write example essays for this prompt right now: The AI provider did not answer (HTTP 500). Please try again in a few minutes.',
      );
    } finally {
      ai.server.succeed();
    }
  }, 60_000);

  it('lets only admins add examples, shown labelled as examples before AI ones', async () => {
    const prompt = UC_PROMPTS[2]!; // the talent or skill question
    const body = { prompt, title: 'Chess Clock', essay: `My greatest skill is patience. ${ESSAY_WORDS(60)}` };
    const asStudent = await gw.api('POST', '/api/add-example-essay', { token: student.idToken, body });
    expect(asStudent.status).toBe(403);
    const anon = await gw.api('POST', '/api/add-example-essay', { body });
    expect(anon.status).toBe(401);
    const short = await gw.api<Record<string, unknown>>('POST', '/api/add-example-essay', {
      token: admin.idToken,
      body: { ...body, essay: 'Too short.' },
    });
    expect(short.status).toBe(400);
    expect(short.body.message).toBe('The example essay must be between 50 and 20,000 characters');
    const unknown = await gw.api('POST', '/api/add-example-essay', {
      token: admin.idToken,
      body: { ...body, prompt: 'A prompt no college asks' },
    });
    expect(unknown.status).toBe(404);

    const before = ai.responses().length;
    const added = await gw.api<Record<string, unknown>>('POST', '/api/add-example-essay', {
      token: admin.idToken,
      body,
    });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ success: true, example: { origin: 'admin', title: 'Chess Clock' } });

    const r = await get('/get-essays', { collegeName: 'University of California', prompt });
    expect(r.status).toBe(200);
    expect(r.body.essays).toEqual([body.essay]);
    expect((r.body.examples as Array<{ label: string }>)[0]!.label).toMatch(
      /^Example essay added by our team/,
    );
    expect(ai.responses().length).toBe(before); // an example exists: nothing to write
  });
});

describe("prompts grouped across a student's colleges", () => {
  it('groups similar prompts of the colleges on the student list, biggest groups first', async () => {
    const alpha = 'Group Alpha College';
    const beta = 'Group Beta University';
    await seedColleges(gw.db, [buildCollege({ name: alpha }), buildCollege({ name: beta })]);
    await publishIngested(
      {
        name: alpha,
        essayPrompts: [`Why do you want to attend ${alpha}?`, 'Describe a community you belong to.'],
        essayPromptMeta: [{ prompt: `Why do you want to attend ${alpha}?`, wordLimit: 150 }],
      },
      'group-alpha',
    );
    await publishIngested(
      {
        name: beta,
        essayPrompts: ['Why Group Beta?', 'Tell us about an extracurricular activity that matters to you.'],
      },
      'group-beta',
    );
    await until(
      () => get('/get-prompts', { collegeName: beta }),
      (r) => r.status === 200,
      'the group colleges',
    );
    const groups = () =>
      gw.api<{ colleges: string[]; groups: Array<{ category: string; label: string; prompts: unknown[] }> }>(
        'GET',
        '/api/get-prompt-groups',
        { token: student.idToken },
      );

    const empty = await groups();
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({ colleges: [], groups: [] });

    for (const collegeName of [alpha, beta]) {
      const added = await gw.api('POST', '/api/add-user-college', {
        token: student.idToken,
        body: { collegeName },
      });
      expect(added.status).toBe(200);
    }
    const r = await groups();
    expect(r.status).toBe(200);
    expect(r.body.colleges).toEqual([alpha, beta]);
    expect(r.body.groups.map((g) => [g.category, g.prompts.length])).toEqual([
      ['why-us', 2],
      ['community', 1],
      ['activity', 1],
    ]);
    expect(r.body.groups[0]).toMatchObject({
      label: 'Why this college',
      prompts: [
        { collegeName: alpha, prompt: `Why do you want to attend ${alpha}?`, wordLimit: 150 },
        { collegeName: beta, prompt: 'Why Group Beta?', wordLimit: null },
      ],
    });
    expect((await gw.api('GET', '/api/get-prompt-groups')).status).toBe(401);
  });

  it("lists each of the student's colleges in list order with its prompts, limits read from the text too", async () => {
    const gamma = 'Group Gamma Institute';
    const delta = 'Group Delta College';
    await seedColleges(gw.db, [buildCollege({ name: gamma }), buildCollege({ name: delta })]);
    await publishIngested(
      { name: delta, essayPrompts: ['Describe your hometown. Please answer in 300 words or fewer.'] },
      'group-delta',
    );
    await until(
      () => get('/get-prompts', { collegeName: delta }),
      (r) => r.status === 200,
      'the delta college',
    );
    for (const collegeName of [gamma, delta])
      await gw.api('POST', '/api/add-user-college', { token: student.idToken, body: { collegeName } });
    const r = await gw.api<{
      colleges: Array<{ collegeName: string; prompts: Array<{ prompt: string; wordLimit: number | null }> }>;
    }>('GET', '/api/get-my-essay-prompts', { token: student.idToken });
    expect(r.status).toBe(200);
    expect(r.body.colleges.map((c) => [c.collegeName, c.prompts.map((p) => p.wordLimit)])).toEqual([
      ['Group Alpha College', [150, null]],
      ['Group Beta University', [null, null]],
      [gamma, []],
      [delta, [300]],
    ]);
    expect(r.body.colleges[0]!.prompts[0]!.prompt).toBe('Why do you want to attend Group Alpha College?');
    expect((await gw.api('GET', '/api/get-my-essay-prompts')).status).toBe(401);
    const other = await createVerifiedUser({ name: 'Other Student' });
    const none = await gw.api<{ colleges: unknown[] }>('GET', '/api/get-my-essay-prompts', {
      token: other.idToken,
    });
    expect(none.body.colleges).toEqual([]);
  });

  it('refuses text Postgres would refuse, and stores nothing', async () => {
    const prompt = (await get('/get-prompts', { collegeName: 'Common App' })).body.prompts as string[];
    const r = await gw.api<{ message: string }>('POST', '/api/add-example-essay', {
      token: admin.idToken,
      body: { prompt: prompt[1], essay: `A setback\u0000 taught me patience. ${ESSAY_WORDS(20)}` },
    });
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/NUL/);
    const stored = await gw.db.query('SELECT 1 FROM essays.example_essay WHERE body LIKE $1', ['A setback%']);
    expect(stored.rowCount).toBe(0);
  });
});
