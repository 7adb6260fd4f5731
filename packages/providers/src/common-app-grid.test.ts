import { describe, expect, it } from 'vitest';
import { CommonAppGrid, gridFacts, type GridFacts } from './common-app-grid.ts';

const SOURCE = {
  url: 'https://content.commonapp.org/Files/ReqGrid.pdf',
  title: 'Common App requirements grid 2025-26',
};

const entry = (over: Partial<GridFacts> = {}): GridFacts => ({
  name: 'Example College',
  system: 'common_app',
  deadlines: { EA: '2025-11-01', RD: '2026-01-15' },
  fees: { us: 75, intl: 90 },
  personal_essay: true,
  writing_supplement: 'Yes',
  courses_and_grades: null,
  portfolio: null,
  test_policy: 'optional',
  tests_used: 'SAT without essay or ACT without science or writing',
  english_tests: 'See Website',
  recs: { teacher_evals: 2, other_evals: null, midyear_report: true, counselor_rec: true },
  admission_type: null,
  ...over,
});

describe('what a Common App grid entry means for a student', () => {
  it('gives the deadlines of a cycle under way, labelled, and the requirements in words', () => {
    const f = gridFacts(entry(), SOURCE, new Date('2025-09-15T12:00:00Z'))!;
    expect(f.deadlines).toEqual([
      { type: 'Early Action', date: '2025-11-01' },
      { type: 'Regular Decision', date: '2026-01-15' },
    ]);
    expect(f.requirements).toEqual({
      transcripts: null,
      SAT_ACT: 'Optional (SAT without essay or ACT without science or writing)',
      teacherRecommendations: '2 teacher evaluations required',
      applicationFee: '$75 (international applicants: $90)',
      personalEssay: 'Required',
      writingSupplement: 'Required',
      counselorRecommendation: 'Required, with the midyear report',
    });
    expect(f.source).toEqual(SOURCE);
  });

  it('gives no dates once the grid’s cycle has passed, but keeps its requirements', () => {
    const f = gridFacts(entry(), SOURCE, new Date('2026-11-24T12:00:00Z'))!;
    expect(f.deadlines).toEqual([]);
    expect(f.requirements.SAT_ACT).toMatch(/^Optional/);
  });

  it('places dates that recur every year in the cycle under way, and keeps rolling plans', () => {
    const mit = entry({
      deadlines: {},
      annual_rules: { EA: '11-01' },
      test_policy: 'required',
      tests_used: 'None',
    });
    expect(gridFacts(mit, SOURCE, new Date('2026-11-24T00:00:00Z'))!.deadlines).toEqual([
      { type: 'Early Action', date: '2026-11-01' },
    ]);
    const uc = entry({ deadlines: {}, annual_rules: { filing_open: '10-01', filing_close: '11-30' } });
    expect(gridFacts(uc, SOURCE, new Date('2027-02-01T00:00:00Z'))!.deadlines).toEqual([
      { type: 'Application filing opens', date: '2026-10-01' },
      { type: 'Application filing deadline', date: '2026-11-30' },
    ]);
    const rolling = entry({ deadlines: { RD: 'rolling' }, fees: { us: 0, intl: 0 } });
    const f = gridFacts(rolling, SOURCE, new Date('2026-11-24T00:00:00Z'))!;
    expect(f.deadlines).toEqual([{ type: 'Regular Decision (rolling)', date: null }]);
    expect(f.requirements.applicationFee).toBe('No application fee');
  });

  it('says nothing when the entry says nothing', () => {
    const empty = entry({
      deadlines: {},
      fees: null,
      personal_essay: null,
      writing_supplement: null,
      test_policy: null,
      tests_used: null,
      recs: null,
    });
    expect(gridFacts(empty, SOURCE, new Date('2026-11-24T00:00:00Z'))).toBeNull();
  });
});

describe('the shipped grid', () => {
  it('loads, and finds a college by UNITID or, without one, by name and state', async () => {
    const grid = await CommonAppGrid.shipped();
    expect(grid.size).toBeGreaterThan(1000);
    expect(grid.source.title).toBe('Common App requirements grid 2025-26');
    const fall2025 = new Date('2025-09-01T00:00:00Z');
    expect(grid.find('Harvard University', [], 'Cambridge', 'MA', 166027, fall2025)!.deadlines).toEqual([
      { type: 'Restrictive Early Action', date: '2025-11-01' },
      { type: 'Regular Decision', date: '2026-01-01' },
    ]);
    expect(grid.find('Anderson University', [], 'Anderson', 'IN', null, fall2025)!.deadlines).toEqual([
      { type: 'Regular Decision (rolling)', date: null },
    ]);
    expect(grid.find('Anderson University', [], 'Anderson', 'TX', null, fall2025)).toBeNull();
    // A Scorecard institution the reviewed match left out is not guessed by name.
    // "Union College" of the grid is the Common App member of the name, in Schenectady, NY.
    expect(grid.find('Union College', [], 'Schenectady', 'NY', 196866, fall2025)?.deadlines).toContainEqual({
      type: 'Early Decision',
      date: '2025-11-01',
    });
    expect(grid.find('Qwxyzzy Imaginary Academy', [], null, null, null, fall2025)).toBeNull();
  });
});
