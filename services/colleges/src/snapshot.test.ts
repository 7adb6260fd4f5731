import { buildCollege, freshDatabase, type TestDatabase } from '@ct/testkit';
import { migrateModule, type ServiceModule } from '@ct/service-kit';
import { openDb, type Db } from '@ct/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import collegesService from './app.ts';
import { CollegeRepository } from './repositories/colleges.ts';
import { readSnapshotFile } from './snapshot-file.ts';
import { SnapshotLoads } from './repositories/snapshot.ts';
import { loadSnapshot } from './snapshot.ts';

const FALL_2025 = new Date('2025-09-15T12:00:00Z');
const FALL_2026 = new Date('2026-11-24T12:00:00Z');
const migrate = (db: Db) => migrateModule(db, collegesService as unknown as ServiceModule);

let database: TestDatabase;
let db: Db;
let repo: CollegeRepository;

beforeAll(async () => {
  database = await freshDatabase('snapshot');
  db = await openDb({ url: database.url });
  await migrate(db);
  repo = new CollegeRepository(db);
});
afterAll(async () => {
  await db?.close();
  await database?.drop();
});

describe('the College Scorecard snapshot shipped with the product', () => {
  it('is a few hundred KB and holds every institution with its source and notice', () => {
    const s = readSnapshotFile();
    expect(s.rows).toHaveLength(6543);
    expect(s.source.url).toBe('https://collegescorecard.ed.gov/data/');
    expect(s.notice).toMatch(/public domain/);
    expect(s.groups.map((g) => [g.label, g.dataYear])).toEqual([
      ['Institution, enrollment, admissions, student body, cost, net price and completion', '2021-22'],
      ['Website', '2025-01-16 release'],
      ['Net price calculator link', 'about the 2022 release'],
      ['Median earnings 10 years after entry', '2020-21'],
      ['Test-score requirement and open admissions policy', '2021-22'],
      ['Completion by Pell Grant, loan and first-generation status', '2021-22'],
    ]);
    // The fit band's figures (issue 22): section ranges, retention, and the test requirement joined from
    // the year file the demo CSV was cut from.
    for (const c of ['SATVR25', 'SATVR75', 'SATMT25', 'SATMT75', 'ACTCM25', 'ACTCM75', 'RET_FT4', 'ADMCON7'])
      expect(s.columns).toContain(c);
    const harvard = s.rows.find((r) => r[0] === 166027)!;
    const at = (c: string) => harvard[s.columns.indexOf(c)];
    expect([at('SATVR25'), at('SATMT75'), at('ADMCON7')]).toEqual([730, 800, 5]);
    // The open admissions policy (issue 34): a community college admits every applicant, Harvard does not.
    const miamiDade = s.rows.find((r) => r[0] === 135717)!;
    expect([miamiDade[s.columns.indexOf('OPENADMP')], at('OPENADMP')]).toEqual([1, 2]);
    // Completion of students like the reader (issue 48), exact to the year file: Harvard's Pell Grant
    // recipients and students with neither a Pell Grant nor a subsidized loan.
    expect([at('C150_4_PELL'), at('C150_4_NOLOANNOPELL'), at('C150_4_POOLED')]).toEqual([
      0.9394,
      0.9725,
      null,
    ]);
  });

  it('loads every institution into an empty database as a complete college', async () => {
    const progress: number[] = [];
    const r = await loadSnapshot(db, { now: FALL_2025, onProgress: (done) => progress.push(done) });
    expect(r).toMatchObject({
      loaded: true,
      colleges: 6543,
      inserted: 6543,
      updated: 0,
      dataYear: '2021-22',
    });
    expect(r.withGrid).toBeGreaterThan(1000);
    expect(progress.at(-1)).toBe(6543);
    expect(await repo.countColleges()).toBe(6543);

    const harvard = (await repo.findCollege('Harvard University'))!;
    expect(harvard.factsGathered).toBe(false);
    const c = harvard.college;
    expect(c.scorecardId).toBe(166027);
    expect(c.demographics).toMatchObject({
      schoolCity: 'Cambridge',
      schoolState: 'MA',
      ownership: 'Private nonprofit',
    });
    expect(c.demographics.finance.netPrice30001to48000).toBe(-273);
    // The average net price of the private series (NPT4_PRIV), what a student without a profile sees.
    expect(c.demographics.finance.avgNetPrice).toBe(13259);
    // Each part says which year its figures describe.
    expect(c.sources.demographics).toMatchObject({
      url: 'https://collegescorecard.ed.gov/school/?166027',
      title: 'College Scorecard, U.S. Department of Education, 2021-22',
      gatheredAt: '2025-01-16T00:00:00.000Z',
    });
    expect(c.sources['demographics.finance.medianEarnings']!.title).toBe(
      'College Scorecard, U.S. Department of Education, 2020-21',
    );
    expect(c.sources['demographics.priceCalcUrl']!.title).toMatch(/about the 2022 release$/);
    // The file the link comes from states no release: the card says none rather than the load date.
    expect(c.sources['demographics.priceCalcUrl']).toMatchObject({
      dataYear: 'about the 2022 release',
      released: null,
    });
    expect(c.sources.demographics).toMatchObject({ dataYear: '2021-22', released: '2025-01-16' });
    // No figure the Scorecard does not publish is reported missing under a label it never meant.
    expect(c.missing.join('\n')).not.toContain('grants or loans');
    // Where a campus has no admission rate of its own, all campuses' rate, so labelled.
    const hamilton = (await repo.findCollege('Miami University-Hamilton'))!.college.demographics;
    expect(hamilton.admissionRate).toBeCloseTo(0.88599533177725, 10);
    expect(hamilton.admissionRateScope).toBe('all-campuses');
    // Deadlines and requirements from the Common App grid, in the cycle they belong to.
    expect(c.info.deadlines).toEqual([
      { type: 'Restrictive Early Action', date: '2025-11-01' },
      { type: 'Regular Decision', date: '2026-01-01' },
    ]);
    expect(c.info.requirements).toMatchObject({
      SAT_ACT: 'Required',
      teacherRecommendations: '2 teacher evaluations required',
    });
    expect(c.info.requirements.applicationFee).toMatch(/^\$\d+/);
    expect(c.sources['info.requirements']).toMatchObject({
      url: 'https://content.commonapp.org/Files/ReqGrid.pdf',
      title: 'Common App requirements grid 2025-26',
    });
    // What is not there says why, truthfully.
    expect(c.missing).toContain(
      "Essay prompts (from the college's own pages, when an AI provider is configured)",
    );
    expect(c.missing).toContain(
      'First-generation share (not in the College Scorecard file this data comes from)',
    );
    expect(c.missing.some((m) => m.startsWith('Deadlines ('))).toBe(false);
  }, 120_000);

  it('gives a college outside the grid the government figures alone, and keeps same-named ones apart', async () => {
    const mdc = (await repo.findCollege('Miami Dade College'))!.college;
    expect(mdc.demographics.finance.netPrice0to30000).toEqual(expect.any(Number));
    expect(mdc.info.deadlines).toEqual([]);
    expect(mdc.info.requirements).toEqual({ transcripts: null, SAT_ACT: null, teacherRecommendations: null });
    expect(mdc.missing).toContain(
      "Deadlines (from the college's own pages, when an AI provider is configured)",
    );
    expect(mdc.missing).toContain(
      "Requirements (from the college's own pages, when an AI provider is configured)",
    );
    expect((await repo.findCollege('UT Austin'))!.college.name).toBe('The University of Texas at Austin');
    const columbia = await db.query<{ name: string }>(
      `SELECT name FROM colleges.college WHERE name LIKE 'Columbia College (%' ORDER BY name`,
    );
    expect(columbia.rows.map((r) => r.name)).toContain('Columbia College (Columbia, MO)');
  });

  it('is skipped by later starts', async () => {
    const r = await loadSnapshot(db, { now: FALL_2025 });
    expect(r).toMatchObject({ loaded: false, skipped: 'already loaded' });
    expect(await repo.countColleges()).toBe(6543);
  }, 120_000);

  it('loads again when a new version applies, keeping what was gathered from a college’s pages', async () => {
    // A student had Amherst gathered from its pages by the AI provider.
    const amherst = (await repo.findCollege('Amherst College'))!.college;
    await repo.upsertCollege(
      buildCollege({
        name: 'Amherst College',
        scorecardId: amherst.scorecardId,
        info: {
          deadlines: [{ type: 'Early Decision', date: '2026-11-01' }],
          tips: ['Read the open curriculum page before you write.'],
        },
      }),
      { mode: 'replace', factsGathered: true },
    );
    // A new admission cycle changes which grid deadlines apply: a new version.
    const r = await loadSnapshot(db, { now: FALL_2026 });
    expect(r).toMatchObject({ loaded: true, colleges: 6543, inserted: 0, updated: 6543 });
    const kept = (await repo.findCollege('Amherst College'))!;
    expect(kept.factsGathered).toBe(true);
    expect(kept.college.info.tips).toEqual(['Read the open curriculum page before you write.']);
    expect(kept.college.info.deadlines).toEqual([{ type: 'Early Decision', date: '2026-11-01' }]);
    expect(kept.college.demographics.schoolCity).toBe('Amherst'); // official figures back in place
    // A college not gathered is replaced whole: the passed cycle's dates are shown as that cycle's.
    const harvard = (await repo.findCollege('Harvard University'))!.college;
    const last = "2025-26 date; this cycle's dates not yet published";
    expect(harvard.info.deadlines).toEqual([
      { type: 'Restrictive Early Action', date: '2025-11-01', note: last },
      { type: 'Regular Decision', date: '2026-01-01', note: last },
    ]);
    expect(harvard.info.requirements.SAT_ACT).toBe('Required');
    expect(await repo.countColleges()).toBe(6543);
    expect((await new SnapshotLoads(db).list()).filter((l) => l.kind === 'snapshot')).toHaveLength(2);
  }, 120_000);
});

describe('loading on a fresh database', () => {
  it('happens once when several replicas start together (advisory lock)', async () => {
    const target = await freshDatabase('snapshot_race');
    const a = await openDb({ url: target.url, poolMax: 2 });
    const b = await openDb({ url: target.url, poolMax: 2 });
    try {
      await migrate(a);
      const results = await Promise.all([
        loadSnapshot(a, { now: FALL_2026 }),
        loadSnapshot(b, { now: FALL_2026 }),
      ]);
      expect(results.map((r) => r.loaded).sort()).toEqual([false, true]);
      expect(results.find((r) => !r.loaded)!.skipped).toBe('already loaded');
      expect(await new CollegeRepository(a).countColleges()).toBe(6543);
    } finally {
      await a.close();
      await b.close();
      await target.drop();
    }
  }, 120_000);

  it('never overwrites newer official data an operator imported', async () => {
    const target = await freshDatabase('snapshot_import');
    const t = await openDb({ url: target.url });
    try {
      await migrate(t);
      await new SnapshotLoads(t).record({
        version: 'import:0123456789abcdef',
        kind: 'import',
        source: 'Most-Recent-Cohorts-Institution.csv',
        sha256: null,
        released: '2026-06-10',
        colleges: 0,
        ms: 1,
      });
      const r = await loadSnapshot(t, { now: FALL_2026 });
      expect(r).toMatchObject({ loaded: false, skipped: 'newer data imported' });
      expect(await new CollegeRepository(t).countColleges()).toBe(0);
    } finally {
      await t.close();
      await target.drop();
    }
  });

  it('works on the embedded store (PGlite) too', async () => {
    const p = await openDb({ dataDir: 'memory://' });
    try {
      await migrate(p);
      const r = await loadSnapshot(p, { now: FALL_2026 });
      expect(r).toMatchObject({ loaded: true, colleges: 6543 });
      expect((await new CollegeRepository(p).findCollege('Harvard University'))!.college.scorecardId).toBe(
        166027,
      );
      expect((await loadSnapshot(p, { now: FALL_2026 })).loaded).toBe(false);
    } finally {
      await p.close();
    }
  }, 120_000);
});
