import type { College, IngestionRequest } from '@ct/contracts';
import {
  buildFactsAnswer,
  createVerifiedUser,
  providerFakes,
  type TestGateway,
  type TestUser,
} from '@ct/testkit';
import { beforeAll, describe, expect, it } from 'vitest';
import { collegesSuite, eventually } from './colleges-helpers.ts';

type Body<T> = { success: boolean; message: string; data: T; code?: string };
const INTERNAL_TOKEN = 'test-internal-token-colleges-failures';

let student: TestUser;
const { scorecard, openai, providerEnv } = providerFakes();
beforeAll(async () => {
  student = await createVerifiedUser({ name: 'Student' });
});

function client(gw: TestGateway) {
  const status = (name: string) =>
    gw.api<Body<IngestionRequest>>('GET', '/api/ingestion-status', {
      token: student.idToken,
      query: { name },
    });
  return {
    add: (name: string) =>
      gw.api<Body<IngestionRequest>>('POST', '/api/add-college', { token: student.idToken, body: { name } }),
    search: (name: string) =>
      gw.api<Body<College>>('GET', '/api/search-college', { token: student.idToken, query: { name } }),
    status,
    finished: (name: string) =>
      eventually(
        async () => {
          const r = await status(name);
          return r.body.data && ['done', 'failed'].includes(r.body.data.state) ? r.body.data : undefined;
        },
        30_000,
        `ingestion of ${name}`,
      ),
    internal: (method: 'GET' | 'POST', path: string, body?: unknown) =>
      gw.api<Record<string, unknown>>(method, path, {
        internal: true,
        ...(body !== undefined ? { body } : {}),
      }),
  };
}

describe('with only the College Scorecard configured', () => {
  const gw = collegesSuite(
    () => ({
      SCORECARD_API_URL: scorecard.url,
      SCORECARD_API_KEY: scorecard.apiKey,
      OPENAI_API_KEY: undefined,
      OPENAI_BASE_URL: undefined,
      INGESTION_BACKOFF_MS: '50',
      SCORECARD_TIMEOUT_MS: '400',
    }),
    { env: { INTERNAL_TOKEN } },
  );

  it('retries a failing provider, then records the request as failed with its reason', async () => {
    const c = client(gw);
    scorecard.server.fail('500');
    const before = scorecard.server.calls;
    try {
      expect((await c.add('Yale University')).status).toBe(202);
      const failed = await c.finished('Yale University');
      expect(failed).toMatchObject({ state: 'failed', stage: 'failed', attempts: 3 });
      expect(failed.failureReason).toBe(
        'We could not gather "Yale University". The College Scorecard API did not answer (HTTP 500). ' +
          'No AI provider is configured, so no college facts could be gathered.',
      );
      expect(scorecard.server.calls - before).toBe(3);
      expect((await c.search('Yale University')).status).toBe(404);
    } finally {
      scorecard.server.succeed();
    }

    // Asking again soon after shows the failure rather than hammering the provider...
    const again = await c.add('Yale University');
    expect(again.status).toBe(200);
    expect(again.body.data.state).toBe('failed');
    expect(again.body.message).toBe(again.body.data.failureReason);
    // ...and the admin's retry gathers it once the provider is back.
    const retried = await c.internal('POST', '/api/internal/ingestion/retry', { key: 'yale university' });
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ request: { state: 'queued', failureReason: null } });
    expect(await c.finished('Yale University')).toMatchObject({
      state: 'done',
      collegeName: 'Yale University',
    });
    const yale = (await c.search('Yale University')).body.data;
    expect(yale.demographics.schoolCity).toBe('New Haven');
    expect(yale.missing).toContain('Essay prompts (no AI provider is configured)');
  });

  it('gives up on a provider that never answers, saying so', async () => {
    const c = client(gw);
    scorecard.server.fail('timeout');
    try {
      await c.add('Brown University');
      const failed = await c.finished('Brown University');
      expect(failed.state).toBe('failed');
      expect(failed.failureReason).toContain('The College Scorecard API did not answer in time.');
    } finally {
      scorecard.server.succeed();
    }
  });

  it('fails at once, without retrying, for a college that does not exist', async () => {
    const c = client(gw);
    await c.add('Qwxyzzy Imaginary Academy');
    const failed = await c.finished('Qwxyzzy Imaginary Academy');
    expect(failed).toMatchObject({ state: 'failed', attempts: 1 });
    expect(failed.failureReason).toBe(
      'We could not find a college called "Qwxyzzy Imaginary Academy". The College Scorecard has no record of a ' +
        'college by this name. No AI provider is configured, so no college facts could be gathered. ' +
        'Check the spelling or try its full official name.',
    );
  });

  it('stores government data plus the Common App requirements when no AI provider is configured', async () => {
    const c = client(gw);
    await c.add('Amherst College');
    expect(await c.finished('Amherst College')).toMatchObject({ state: 'done' });
    const amherst = (await c.search('Amherst College')).body.data;
    // The shipped grid is for the 2025-26 cycle: its dates have passed, so each is shown as that cycle's,
    // never as this cycle's.
    expect(amherst.info.deadlines.length).toBeGreaterThan(0);
    for (const d of amherst.info.deadlines)
      expect(d).toMatchObject({
        date: expect.stringMatching(/^202[56]-/),
        note: "2025-26 date; this cycle's dates not yet published",
      });
    expect(amherst.sources['info.requirements']).toMatchObject({
      url: 'https://content.commonapp.org/Files/ReqGrid.pdf',
      title: 'Common App requirements grid 2025-26',
    });
    expect(amherst.info.requirements).toEqual({
      transcripts: 'Self-reported courses and grades required',
      SAT_ACT: 'Optional',
      teacherRecommendations: '2 teacher evaluations required',
      applicationFee: '$75',
      personalEssay: 'Required',
      counselorRecommendation: 'Required, with the midyear report',
      // The same grid facts as figures, for the fit band and the cost of applying (issue 22).
      applicationFeeUsd: 75,
      testPolicy: 'optional',
    });
    expect(amherst.info.essayPrompts).toEqual([]);
    expect(amherst.missing).toContain('Essay prompts (no AI provider is configured)');
  });

  it('shows the admin the failed requests with their reasons and the queue depth', async () => {
    const c = client(gw);
    const r = await c.internal('GET', '/api/internal/ingestion');
    expect(r.status).toBe(200);
    const body = r.body as { failed: IngestionRequest[]; totalFailed: number; queue: Record<string, number> };
    expect(body.totalFailed).toBe(2);
    expect(body.failed.map((f) => f.key).sort()).toEqual(['brown university', 'qwxyzzy imaginary academy']);
    expect(body.failed.every((f) => f.failureReason)).toBe(true);
    expect(body.queue).toMatchObject({ waiting: 0, active: 0 });
    const conflict = await c.internal('POST', '/api/internal/ingestion/retry', { key: 'amherst college' });
    expect(conflict.status).toBe(409);
    expect(conflict.body.message).toBe('Only a failed request can be retried.');
    expect((await c.internal('POST', '/api/internal/ingestion/retry', { key: 'nope' })).status).toBe(404);
    // Internal routes are not reachable without the internal token
    expect((await gw.api('GET', '/api/internal/ingestion', { token: student.idToken })).status).toBe(404);
  });
});

describe('with both providers configured', () => {
  const gw = collegesSuite(() => ({
    ...providerEnv(),
    INGESTION_BACKOFF_MS: '50',
  }));

  it('keeps the government data when the AI provider keeps answering malformed JSON', async () => {
    const c = client(gw);
    openai.setResponder(() => ({ value: null, rawText: '{"found": true, "officialName": "Stanford' }));
    try {
      await c.add('Stanford University');
      const done = await c.finished('Stanford University');
      expect(done).toMatchObject({ state: 'done', attempts: 3 });
    } finally {
      openai.setResponder(null);
    }
    const stanford = (await c.search('Stanford University')).body.data;
    expect(stanford.demographics.schoolCity).toBe('Stanford');
    expect(stanford.info.essayPrompts).toEqual([]);
    expect(stanford.missing).toContain(
      'Essay prompts (The AI provider answered with text that is not valid JSON)',
    );
  });

  it('drops a fact the model gives without a page, and says so', async () => {
    const c = client(gw);
    openai.setResponder((req) => {
      if (!req.input.includes('Williams College')) return undefined;
      return {
        value: buildFactsAnswer({
          officialName: 'Williams College',
          city: 'Williamstown',
          state: 'MA',
          website: 'https://www.williams.edu/',
          essayPrompts: { value: ['Why Williams?'], sourceUrl: null },
          tips: { value: ['Apply early.'], sourceUrl: 'https://admission.williams.edu/tips' },
        }),
      };
    });
    try {
      await c.add('Williams College');
      expect(await c.finished('Williams College')).toMatchObject({ state: 'done' });
    } finally {
      openai.setResponder(null);
    }
    const w = (await c.search('Williams College')).body.data;
    expect(w.info.essayPrompts).toEqual([]);
    expect(w.missing).toContain('Essay prompts (found without a source page, so not kept)');
    expect(w.info.tips).toEqual(['Apply early.']);
    expect(w.sources['info.tips']).toMatchObject({ url: 'https://admission.williams.edu/tips' });
  });
});

describe('with no provider configured', () => {
  const gw = collegesSuite(() => ({
    SCORECARD_API_KEY: undefined,
    SCORECARD_API_URL: undefined,
    OPENAI_API_KEY: undefined,
    OPENAI_BASE_URL: undefined,
  }));

  it('records a failure that says plainly what could not be gathered', async () => {
    const c = client(gw);
    expect((await c.add('Harvard University')).status).toBe(202);
    const failed = await c.finished('Harvard University');
    expect(failed).toMatchObject({ state: 'failed', attempts: 1 });
    expect(failed.failureReason).toBe(
      'We could not gather "Harvard University": no College Scorecard API key and no AI provider are configured, ' +
        'so neither government data nor college facts could be gathered.',
    );
  });
});
