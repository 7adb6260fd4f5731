import type { CollegeFactsAnswer } from '@ct/contracts';
import { moneyDataYears } from '@ct/contracts/planning';
import { buildFactsAnswer } from '@ct/testkit';
import { describe, expect, it } from 'vitest';
import {
  assembleCollege,
  comingCycles,
  governmentCollege,
  mergeEnrichment,
  mergeEnrichmentHeld,
  mergeGovernment,
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

  it("keeps the grid's requirements first: the pages fill what it does not state; a differing policy is held", () => {
    const GRID = {
      url: 'https://content.commonapp.org/Files/ReqGrid.pdf',
      title: 'Common App requirements grid',
    };
    const gridRequirements = {
      transcripts: null,
      SAT_ACT: 'Optional',
      teacherRecommendations: '1 teacher evaluation required',
      applicationFee: '$75',
      counselorRecommendation: 'Required',
      testPolicy: 'optional',
      applicationFeeUsd: 75,
    };
    const aiRequirements = {
      value: {
        transcripts: 'Official transcript',
        SAT_ACT: 'Required from 2027',
        teacherRecommendations: 'Two teacher letters',
        applicationFee: '$90',
      },
      sourceUrl: 'https://www.quillon.edu/apply/requirements',
    };
    const expected = {
      transcripts: 'Official transcript',
      SAT_ACT: 'Optional',
      teacherRecommendations: '1 teacher evaluation required',
      applicationFee: '$75',
      counselorRecommendation: 'Required',
      testPolicy: 'optional',
      applicationFeeUsd: 75,
    };
    const heldFact = {
      kind: 'requirements',
      value: { SAT_ACT: 'Required from 2027', applicationFee: '$90' },
      sourceUrl: aiRequirements.sourceUrl,
      reason:
        'It contradicts the official requirements, which outrank an AI answer: SAT_ACT: Optional; ' +
        `applicationFee: $75 (source: Common App requirements grid (${GRID.url})).`,
    };
    // The worker's document: the grid first, the college's pages for what it does not state.
    const gathered = assembleCollege({
      requestedName: 'Quillon College',
      government: gov,
      facts: { answer: answer({ requirements: aiRequirements }), sources: [] },
      local: { deadlines: [], requirements: gridRequirements, source: GRID },
      gatheredAt: '2026-11-24T13:00:00.000Z',
    });
    expect(gathered.college.info.requirements).toEqual(expected);
    expect(gathered.college.sources['info.requirements']!.url).toBe(GRID.url);
    expect(gathered.college.sources['info.requirements.transcripts']!.url).toBe(aiRequirements.sourceUrl);
    expect(gathered.college.sources['info.requirements.SAT_ACT']).toBeUndefined();
    expect(gathered.held).toEqual([heldFact]);

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
    const merged = mergeEnrichmentHeld(fromSnapshot, aiAnswer);
    expect(merged.college.info.requirements).toEqual(expected);
    expect(merged.college.sources['info.requirements']!.url).toBe(GRID.url);
    expect(merged.college.sources['info.requirements.transcripts']!.url).toBe(aiRequirements.sourceUrl);
    expect(merged.held).toEqual([heldFact]);
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

describe('official figures keep their year when the live Scorecard answer names none (issue 34, item 5)', () => {
  // As the shipped snapshot stores it: the main group's year on the part sources, the earnings from the
  // 2020-21 file on their own path.
  const dated = (dataYear: string) => ({
    url: 'https://collegescorecard.ed.gov/school/?900555',
    title: `College Scorecard, U.S. Department of Education, ${dataYear}`,
    gatheredAt: '2025-01-16T00:00:00.000Z',
    dataYear,
    released: '2025-01-16',
  });
  const fromSnapshot = (row: Record<string, string>) => {
    const doc = governmentCollege(governmentData(recordFromCsv(row))!, '2026-01-05T00:00:00.000Z');
    doc.sources = {
      ...doc.sources,
      name: dated('2021-22'),
      demographics: dated('2021-22'),
      'demographics.finance': dated('2021-22'),
      'demographics.finance.medianEarnings': dated('2020-21'),
    };
    return doc;
  };
  const WITH_EARNINGS = { ...ROW, TUITIONFEE_IN: '1146', MD_EARN_WNE_P10: '61000' };
  // The college's pages read with the live API answering too: the same institution, no year.
  const enrichment = (row: Record<string, string>) =>
    assembleCollege({
      requestedName: 'Quillon College',
      government: governmentData(recordFromCsv(row)),
      facts: { answer: answer(), sources: [] },
      gatheredAt: '2026-11-24T13:00:00.000Z',
    }).college;

  it('keeps the stored dated sources when the live answer has the same figures', () => {
    const merged = mergeEnrichment(fromSnapshot(WITH_EARNINGS), enrichment(WITH_EARNINGS));
    expect(moneyDataYears(merged.demographics.dataYears, merged.sources)).toEqual({
      netPrice: '2021-22',
      cost: '2021-22',
      debt: '2021-22',
      earnings: '2020-21',
    });
    expect(merged.sources.demographics!.dataYear).toBe('2021-22');
    expect(merged.demographics.finance.inStateTuition).toBe(1146);
  });

  it('keeps the year of every unchanged group, and names none for a changed figure', () => {
    const merged = mergeEnrichment(
      fromSnapshot(WITH_EARNINGS),
      enrichment({ ...WITH_EARNINGS, MD_EARN_WNE_P10: '64000' }),
    );
    expect(merged.demographics.finance.medianEarnings).toBe(64000);
    expect(merged.sources['demographics.finance.medianEarnings']).toBeUndefined();
    expect(merged.demographics.dataYears).toMatchObject({
      admissions: '2021-22',
      cost: '2021-22',
      netPrice: '2021-22',
      completion: '2021-22',
    });
    expect(merged.demographics.dataYears?.earnings).toBeUndefined();
    const years = moneyDataYears(merged.demographics.dataYears, merged.sources);
    expect(years.cost).toBe('2021-22');
    expect(years.earnings).toBeUndefined();
  });

  it('takes a dated refresh (an import, a newer snapshot) as it is', () => {
    const newer = fromSnapshot({ ...WITH_EARNINGS, TUITIONFEE_IN: '1200' });
    newer.sources = {
      ...newer.sources,
      demographics: dated('2022-23'),
      'demographics.finance': dated('2022-23'),
    };
    const merged = mergeGovernment(fromSnapshot(WITH_EARNINGS), newer);
    expect(merged.sources.demographics!.dataYear).toBe('2022-23');
    expect(merged.demographics.finance.inStateTuition).toBe(1200);
    expect(merged.demographics.dataYears).toBeUndefined();
  });
});
