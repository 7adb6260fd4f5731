import { INGESTION_QUEUE, type College, type IngestionRequest } from '@ct/contracts';
import { CollegeRepository } from '@ct/colleges/repositories/colleges';
import { governmentCollege, governmentData, recordFromCsv } from '@ct/providers';
import {
  buildCollege,
  buildFactsAnswer,
  clearRedisPrefix,
  createVerifiedUser,
  providerFakes,
  seedColleges,
  type TestGateway,
  type TestUser,
} from '@ct/testkit';
import { beforeAll, describe, expect, it } from 'vitest';
import { allJobs, collegesSuite, eventually, queueOf, startCollegesGateway } from './colleges-helpers.ts';

type Body<T> = { success: boolean; message: string; data: T };
const INTERNAL_TOKEN = 'test-internal-token-colleges-internal';

let student: TestUser;
const { scorecard, openai, providerEnv } = providerFakes();
beforeAll(async () => {
  student = await createVerifiedUser({ name: 'Student' });
});

const providers = () => ({
  ...providerEnv(),
  INGESTION_BACKOFF_MS: '50',
});

function api(gw: TestGateway) {
  return {
    search: (name: string) =>
      gw.api<Body<College>>('GET', '/api/search-college', { token: student.idToken, query: { name } }),
    status: (name: string) =>
      gw.api<Body<IngestionRequest>>('GET', '/api/ingestion-status', {
        token: student.idToken,
        query: { name },
      }),
    add: (name: string) =>
      gw.api<Body<IngestionRequest>>('POST', '/api/add-college', { token: student.idToken, body: { name } }),
    internal: <T>(path: string, query?: Record<string, unknown>) =>
      gw.api<T>('GET', path, {
        internal: true,
        ...(query ? { query } : {}),
      }),
  };
}

describe('listings for the admin service', () => {
  const gw = collegesSuite(providers, { env: { INTERNAL_TOKEN } });
  beforeAll(async () => {
    await seedColleges(gw.db, [
      buildCollege({ name: 'Alder Ridge College', demographics: { schoolCity: 'Alder', schoolState: 'OR' } }),
      buildCollege({
        name: 'Birch Hollow University',
        demographics: { schoolCity: 'Birch', schoolState: 'VT' },
      }),
      buildCollege({
        name: 'Cedar Ridge Institute',
        demographics: { schoolCity: 'Cedar', schoolState: 'UT' },
      }),
    ]);
  });

  it('counts the cached colleges', async () => {
    const r = await api(gw).internal<{ colleges: number }>('/api/internal/colleges/stats');
    expect(r.body).toEqual({ colleges: 3 });
  });

  it('filters by a part of the name, paginates, and adds the document only when asked', async () => {
    const c = api(gw);
    const ridge = await c.internal<{ total: number; items: Array<Record<string, unknown>> }>(
      '/api/internal/colleges',
      {
        name: 'ridge',
      },
    );
    expect(ridge.body.total).toBe(2);
    expect(ridge.body.items.map((i) => i.name).sort()).toEqual([
      'Alder Ridge College',
      'Cedar Ridge Institute',
    ]);
    expect(ridge.body.items[0]).not.toHaveProperty('data');
    const page = await c.internal<{ total: number; items: Array<{ name: string; data?: College }> }>(
      '/api/internal/colleges',
      { limit: 1, offset: 1, full: true },
    );
    expect(page.body.total).toBe(3);
    expect(page.body.items).toHaveLength(1);
    expect(page.body.items[0]!.data!.name).toBe(page.body.items[0]!.name);
    expect(page.body.items[0]).toMatchObject({ city: expect.any(String), state: expect.any(String) });
  });
});

describe('a college known only from the bulk import', () => {
  const gw = collegesSuite(providers);
  beforeAll(async () => {
    const yale = governmentData(recordFromCsv(scorecard.row(130794)!))!;
    await new CollegeRepository(gw.db).upsertColleges([governmentCollege(yale, new Date().toISOString())], {
      mode: 'government',
    });
  });

  it('is found at once, and gets its college facts gathered once the student opens it', async () => {
    const c = api(gw);
    const storedRate = (await c.search('Yale University')).body.data.demographics.admissionRate;
    expect(storedRate).toBeGreaterThan(0);
    openai.setResponder((req) =>
      req.input.includes('Yale University')
        ? {
            value: buildFactsAnswer({
              officialName: 'Yale University',
              city: 'New Haven',
              state: 'CT',
              website: 'https://www.yale.edu/',
              aliases: { value: ['Yale'], sourceUrl: 'https://www.yale.edu/' },
              deadlines: {
                value: [{ type: 'Single-Choice Early Action', date: '2026-11-01' }],
                sourceUrl: 'https://admissions.yale.edu/dates-deadlines',
              },
            }),
          }
        : undefined,
    );
    try {
      const first = await c.search('Yale University');
      expect(first.status).toBe(200);
      expect(first.body.data.demographics.schoolCity).toBe('New Haven');
      expect(first.body.data.missing).toContain(
        'Deadlines (gathered the first time a student searches for this college)',
      );
      // A search only reads (issue 37): opening the card asks for the facts, as the web app does.
      expect((await c.add('Yale University')).status).toBeLessThan(300);
      await eventually(async () =>
        (await c.status('Yale University')).body.data?.state === 'done' ? true : undefined,
      );
    } finally {
      openai.setResponder(null);
    }
    const later = (await c.search('Yale University')).body.data;
    // Issue 44: the Common App grid names Yale's plans (REA, RD) with last cycle's dates. The answer's
    // date of this cycle for the restrictive plan takes that plan's row, in the grid's words, with the
    // college's page as its own source; RD stays the grid's (ADR 0102).
    const rea = later.info.deadlines.findIndex((d) => d.type === 'Restrictive Early Action');
    expect(later.info.deadlines[rea]).toEqual({ type: 'Restrictive Early Action', date: '2026-11-01' });
    expect(later.sources[`info.deadlines.${rea}`]!.url).toBe('https://admissions.yale.edu/dates-deadlines');
    expect(later.info.deadlines.map((d) => d.type).sort()).toEqual([
      'Regular Decision',
      'Restrictive Early Action',
    ]);
    expect(later.sources['info.deadlines']!.url).toMatch(/commonapp\.org/);
    expect(later.demographics.schoolCity).toBe('New Haven');
    // Its government data was stored already: the job spent no Scorecard call on it (issue 45), by id or
    // by name, and the stored figures stay.
    expect(scorecard.server.requests.filter((r) => r.query.get('id') === '130794')).toEqual([]);
    expect(scorecard.server.requests.filter((r) => /yale/i.test(r.query.get('school.name') ?? ''))).toEqual(
      [],
    );
    expect(later.demographics.admissionRate).toBe(storedRate);
    expect(later.sources.demographics!.title).toMatch(/^College Scorecard/);
  });
});

describe('a lost queue loses no request', () => {
  it('a request still waiting when the process stops is finished by the next one on a fresh Redis', async () => {
    // The first process takes the request but runs no worker, then goes away with its Redis keys.
    const first = await startCollegesGateway(providers(), { env: { RUN_WORKER: 'false' } });
    try {
      expect((await api(first).add('Princeton University')).status).toBe(202);
      const next = await startCollegesGateway(providers(), { env: { DATABASE_URL: first.database!.url } });
      try {
        const done = await eventually(async () => {
          const s = (await api(next).status('Princeton University')).body.data;
          return s?.state === 'done' ? s : undefined;
        });
        expect(done.collegeName).toBe('Princeton University');
      } finally {
        await next.close();
      }
    } finally {
      await first.close();
    }
  });

  it('a job wiped from Redis while the app runs is given back by the periodic sweep', async () => {
    const gw = await startCollegesGateway(
      { ...providers(), INGESTION_SWEEP_MS: '300' },
      { env: { RUN_WORKER: 'false' } },
    );
    const queue = queueOf(gw);
    try {
      await api(gw).add('Rice University');
      const jobs = () => allJobs(queue, INGESTION_QUEUE);
      expect(await jobs()).toHaveLength(1);
      await clearRedisPrefix(gw.prefix);
      expect(await jobs()).toHaveLength(0);
      const back = await eventually(async () => {
        const j = await jobs();
        return j.length ? j : undefined;
      });
      expect(back[0]!.data).toMatchObject({ key: 'rice university', name: 'Rice University' });
    } finally {
      await queue.close();
      await gw.close();
    }
  });
});
