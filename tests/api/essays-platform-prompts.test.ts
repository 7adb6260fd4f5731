import { MSG } from '@ct/contracts';
import {
  createVerifiedUser,
  gatewaySuite,
  startTestGateway,
  type TestGateway,
  type TestUser,
} from '@ct/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Embedded, the essays service reads its own variables from the environment: each case sets them.
const KEYS = ['ESSAY_PROMPTS_FILE', 'OPENAI_API_KEY', 'OPENAI_BASE_URL', 'OPENAI_MODEL'] as const;
const saved = Object.fromEntries(KEYS.map((k) => [k, process.env[k]]));
function setEnv(env: Partial<Record<(typeof KEYS)[number], string>>) {
  for (const k of KEYS) {
    if (env[k] === undefined) delete process.env[k];
    else process.env[k] = env[k];
  }
}

let student: TestUser;
beforeAll(async () => {
  student = await createVerifiedUser({ name: 'Prompt Student' });
});
afterAll(() => {
  for (const k of KEYS) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
});

// What the AI provider quotes from the platforms' pages (texts written for the tests, not the real ones).
const COMMON_APP_PROMPTS = [
  'Tell us about a part of your background that your application would feel incomplete without.',
  'Describe an obstacle you ran into, and what you did next.',
];

async function until<T>(fn: () => Promise<T>, ok: (v: T) => boolean, what: string): Promise<T> {
  for (let i = 0; i < 300; i++) {
    const v = await fn();
    if (ok(v)) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`gave up waiting for ${what}`);
}

describe('the Common App and UC prompts, which the product does not ship', () => {
  let gw: TestGateway | undefined;
  afterAll(async () => {
    await gw?.close();
  });

  it('are not listed without an operator file or an AI provider (nothing is read from outside the repository)', async () => {
    setEnv({});
    gw = await startTestGateway();
    const list = await gw.api<{ colleges: string[] }>('GET', '/api/get-colleges-essays', {
      token: student.idToken,
    });
    expect(list.status).toBe(200);
    expect(list.body.colleges).toEqual([]);
    const prompts = await gw.api<{ message: string }>('GET', '/api/get-prompts', {
      token: student.idToken,
      query: { collegeName: 'Common App' },
    });
    expect(prompts.status).toBe(404);
    expect(prompts.body.message).toBe(MSG.noPromptsFound);
    await gw.close();
    gw = undefined;
  });
});

describe('the Common App and UC prompts from the AI provider', () => {
  beforeAll(() => setEnv({}));
  const { gw, openai: ai } = gatewaySuite({
    env: { OPENAI_MODEL: 'fake-model' },
    openai: {
      responder: (req) => {
        if (req.schemaName !== 'platform_prompts') return undefined;
        return {
          value: {
            commonApp: {
              prompts: COMMON_APP_PROMPTS,
              wordLimitMin: 250,
              wordLimitMax: 650,
              sourceUrl: 'https://www.commonapp.org/blog/common-app-essay-prompts',
            },
            // Read somewhere other than the university's own site: not kept.
            universityOfCalifornia: {
              prompts: ['Tell us about a time you showed leadership in a group.'],
              wordLimit: 350,
              sourceUrl: 'https://essay-help.example.com/uc-prompts',
            },
          },
        };
      },
    },
  });

  it('are gathered once from the platforms’ own pages, verbatim, with limits and source', async () => {
    const list = await until(
      () => gw.api<{ colleges: string[] }>('GET', '/api/get-colleges-essays', { token: student.idToken }),
      (r) => r.body.colleges.includes('Common App'),
      'the Common App prompts',
    );
    expect(list.body.colleges).toEqual(['Common App']);
    const asked = ai.responses().filter((r) => r.schemaName === 'platform_prompts');
    expect(asked).toHaveLength(1);
    expect(asked[0]!.input).toMatch(/^Admission cycle: \d{4}-\d{2} \(first-year applicants\)\.$/);
    const prompts = await gw.api<{
      prompts: string[];
      details: Array<{ wordLimit: number | null; sourceUrl: string | null }>;
    }>('GET', '/api/get-prompts', { token: student.idToken, query: { collegeName: 'Common App' } });
    expect(prompts.body.prompts).toEqual(COMMON_APP_PROMPTS);
    expect(prompts.body.details[0]).toMatchObject({
      wordLimit: 650,
      sourceUrl: 'https://www.commonapp.org/blog/common-app-essay-prompts',
    });
    const uc = await gw.api('GET', '/api/get-prompts', {
      token: student.idToken,
      query: { collegeName: 'University of California' },
    });
    expect(uc.status).toBe(404);
  });
});
