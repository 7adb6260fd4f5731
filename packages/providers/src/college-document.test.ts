import type { CollegeFactsAnswer } from '@ct/contracts';
import { buildFactsAnswer } from '@ct/testkit';
import { describe, expect, it } from 'vitest';
import {
  assembleCollege,
  comingCycles,
  governmentCollege,
  mergeEnrichment,
  withinComingCycles,
} from './college-document.ts';
import { governmentData, recordFromCsv } from './scorecard-fields.ts';

/** One institution as the official CSV has it (columns of Most-Recent-Cohorts-Institution.csv). */
const ROW = {
  UNITID: '900555',
  INSTNM: 'Quillon College',
  CITY: 'Quillon',
  STABBR: 'VT',
  INSTURL: 'www.quillon.edu',
  UGDS: '2100',
  ADM_RATE: '0.0412',
  STUFACR: '9',
  COSTT4_A: '81000',
  NPT41_PRIV: '4200',
  C150_4: '0.91',
};
const gov = governmentData(recordFromCsv(ROW))!;

/** What the model answers about Quillon College. */
const answer = (over: Partial<CollegeFactsAnswer> = {}) =>
  buildFactsAnswer({
    officialName: 'Quillon College',
    city: 'Quillon',
    state: 'VT',
    website: 'https://www.quillon.edu/',
    ...over,
  });

describe('the coming two admission cycles (August 1 to July 31)', () => {
  it('run from the August 1 before now to the July 31 two years on', () => {
    expect(comingCycles(new Date('2026-11-24T13:00:00Z'))).toEqual({
      from: '2026-08-01',
      to: '2028-07-31',
      label: '2026-27 and 2027-28',
    });
    expect(comingCycles(new Date('2027-07-31T23:59:59Z'))).toMatchObject({
      from: '2026-08-01',
      to: '2028-07-31',
    });
    expect(comingCycles(new Date('2027-08-01T00:00:00Z'))).toMatchObject({
      from: '2027-08-01',
      to: '2029-07-31',
    });
    expect(comingCycles(new Date('2030-01-15T00:00:00Z'))).toMatchObject({
      from: '2029-08-01',
      to: '2031-07-31',
    });
  });

  it('keep deadlines inside the window and rolling ones; drop past cycles and far-off years', () => {
    const now = new Date('2026-11-24T13:00:00Z');
    expect(
      withinComingCycles(
        [
          { type: 'Regular Decision (last year)', date: '2026-01-05' },
          { type: 'Cycle starts', date: '2026-08-01' },
          { type: 'Early Action', date: '2026-11-01' },
          { type: 'Regular Decision (next cycle)', date: '2028-01-05' },
          { type: 'Cycle ends', date: '2028-07-31' },
          { type: 'Far off', date: '2028-08-01' },
          { type: 'Rolling', date: null },
        ],
        now,
      ).map((d) => d.type),
    ).toEqual(['Cycle starts', 'Early Action', 'Regular Decision (next cycle)', 'Cycle ends', 'Rolling']);
  });

  it('decide which AI deadlines a gathered college keeps, by when it was gathered', () => {
    const deadlines = {
      value: [
        { type: 'Early Decision', date: '2025-11-01' },
        { type: 'Regular Decision', date: '2027-01-05' },
        { type: 'Regular Decision 2030', date: '2030-01-05' },
      ],
      sourceUrl: 'https://www.quillon.edu/apply/deadlines',
    };
    const gathered = (at: string) =>
      assembleCollege({
        requestedName: 'Quillon College',
        government: gov,
        facts: { answer: answer({ deadlines }), sources: [] },
        gatheredAt: at,
      }).college;
    expect(gathered('2026-11-24T13:00:00.000Z').info.deadlines).toEqual([
      { type: 'Regular Decision', date: '2027-01-05' },
    ]);
    // Gathered in 2025, the 2025 date was still of a coming cycle.
    expect(gathered('2025-09-01T00:00:00.000Z').info.deadlines.map((d) => d.type)).toEqual([
      'Early Decision',
      'Regular Decision',
    ]);
    // Nothing left: no deadlines, and the card says why.
    const late = gathered('2031-09-01T00:00:00.000Z');
    expect(late.info.deadlines).toEqual([]);
    expect(late.sources['info.deadlines']).toBeUndefined();
    expect(late.missing).toContain(
      'Deadlines (only dates outside the 2031-32 and 2032-33 admission cycles were found, so not kept)',
    );
  });
});

describe('enriching a Scorecard college with what its own pages say', () => {
  const stored = governmentCollege(gov, '2026-01-05T00:00:00.000Z');
  const aiOnly = assembleCollege({
    requestedName: 'Quillon College',
    government: null,
    governmentReason: 'no College Scorecard API key is configured',
    facts: {
      answer: answer({
        admissionStatistics: {
          value: { overallAcceptanceRate: 0.036, year: 'Class of 2029' },
          sourceUrl: 'https://www.quillon.edu/admissions/profile',
        },
        deadlines: {
          value: [{ type: 'Regular Decision', date: '2027-01-05' }],
          sourceUrl: 'https://www.quillon.edu/apply/deadlines',
        },
      }),
      sources: [{ url: 'https://www.quillon.edu/admissions/profile', title: 'Admissions profile' }],
    },
    gatheredAt: '2026-11-24T13:00:00.000Z',
  }).college;

  it('never takes the official figures from an AI answer', () => {
    const merged = mergeEnrichment(stored, aiOnly);
    expect(merged.demographics).toEqual(stored.demographics);
    expect(merged.demographics.admissionRate).toBe(0.0412);
    expect(merged.scorecardId).toBe(900555);
    expect(merged.sources.demographics).toEqual(stored.sources.demographics);
    expect(merged.sources['demographics.finance']).toEqual(stored.sources['demographics.finance']);
    expect(merged.name).toBe('Quillon College');
    // The AI document had no government data: its reason why does not reach the stored college.
    expect(merged.missing.some((m) => m.startsWith('Demographics and finance'))).toBe(false);
  });

  it("adds the college's own figures and facts, each with its page", () => {
    const merged = mergeEnrichment(stored, aiOnly);
    expect(merged.info.admissionStatistics).toEqual({ overallAcceptanceRate: 0.036, year: 'Class of 2029' });
    expect(merged.sources['info.admissionStatistics']).toMatchObject({
      url: 'https://www.quillon.edu/admissions/profile',
      title: 'Admissions profile',
    });
    expect(merged.info.deadlines).toEqual([{ type: 'Regular Decision', date: '2027-01-05' }]);
    expect(merged.missing).toContain("Tips (not found on the college's pages)");
    expect(merged.missing.some((m) => m.startsWith('Deadlines'))).toBe(false);
  });

  it('keeps a stored fact group the new answer could not find', () => {
    const withGrid = {
      ...stored,
      info: { ...stored.info, deadlines: [{ type: 'Early Decision', date: '2026-11-15' }] },
      sources: {
        ...stored.sources,
        'info.deadlines': {
          url: 'https://content.commonapp.org/Files/ReqGrid.pdf',
          gatheredAt: stored.createdAt,
        },
      },
    };
    const noDeadlines = {
      ...aiOnly,
      info: { ...aiOnly.info, deadlines: [] },
      sources: { ...aiOnly.sources },
    };
    delete noDeadlines.sources['info.deadlines'];
    const merged = mergeEnrichment(withGrid, noDeadlines);
    expect(merged.info.deadlines).toEqual([{ type: 'Early Decision', date: '2026-11-15' }]);
    expect(merged.sources['info.deadlines']!.url).toBe('https://content.commonapp.org/Files/ReqGrid.pdf');
  });

  it("keeps the grid's requirements the college's pages do not mention, each with the grid as its source", () => {
    const GRID = {
      url: 'https://content.commonapp.org/Files/ReqGrid.pdf',
      title: 'Common App requirements grid',
    };
    const gridRequirements = {
      transcripts: 'Required',
      SAT_ACT: 'Optional',
      teacherRecommendations: '1 teacher evaluation required',
      applicationFee: '$75',
      counselorRecommendation: 'Required',
    };
    const aiRequirements = {
      value: {
        transcripts: 'Official transcript',
        SAT_ACT: 'Required from 2027',
        teacherRecommendations: null,
      },
      sourceUrl: 'https://www.quillon.edu/apply/requirements',
    };
    // The worker's document: requirements from the college's pages, the grid for the rest.
    const gathered = assembleCollege({
      requestedName: 'Quillon College',
      government: gov,
      facts: { answer: answer({ requirements: aiRequirements }), sources: [] },
      local: { deadlines: [], requirements: gridRequirements, source: GRID },
      gatheredAt: '2026-11-24T13:00:00.000Z',
    }).college;
    expect(gathered.info.requirements).toEqual({
      transcripts: 'Official transcript',
      SAT_ACT: 'Required from 2027',
      teacherRecommendations: '1 teacher evaluation required',
      applicationFee: '$75',
      counselorRecommendation: 'Required',
    });
    expect(gathered.sources['info.requirements']!.url).toBe('https://www.quillon.edu/apply/requirements');
    expect(gathered.sources['info.requirements.applicationFee']!.url).toBe(GRID.url);
    expect(gathered.sources['info.requirements.SAT_ACT']).toBeUndefined();

    // The stored college from the snapshot, enriched with an answer that has no grid behind it.
    const fromSnapshot = assembleCollege({
      requestedName: 'Quillon College',
      government: gov,
      facts: null,
      local: { deadlines: [], requirements: gridRequirements, source: GRID },
      gatheredAt: '2026-11-20T00:00:00.000Z',
    }).college;
    const aiAnswer = assembleCollege({
      requestedName: 'Quillon College',
      government: null,
      facts: { answer: answer({ requirements: aiRequirements }), sources: [] },
      gatheredAt: '2026-11-24T13:00:00.000Z',
    }).college;
    const merged = mergeEnrichment(fromSnapshot, aiAnswer);
    expect(merged.info.requirements).toMatchObject({
      transcripts: 'Official transcript',
      SAT_ACT: 'Required from 2027',
      applicationFee: '$75',
      counselorRecommendation: 'Required',
    });
    expect(merged.sources['info.requirements']!.url).toBe('https://www.quillon.edu/apply/requirements');
    expect(merged.sources['info.requirements.applicationFee']!.url).toBe(GRID.url);
  });

  it("takes government data only from the same institution's Scorecard record", () => {
    const other = governmentCollege(
      governmentData(recordFromCsv({ ...ROW, UNITID: '900556', ADM_RATE: '0.9' }))!,
      '2026-11-24T00:00:00.000Z',
    );
    expect(mergeEnrichment(stored, other).demographics.admissionRate).toBe(0.0412);
    const fresher = governmentCollege(
      governmentData(recordFromCsv({ ...ROW, ADM_RATE: '0.05' }))!,
      '2026-11-24T00:00:00.000Z',
    );
    expect(mergeEnrichment(stored, fresher).demographics.admissionRate).toBe(0.05);
  });
});
