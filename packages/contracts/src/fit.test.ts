import { describe, expect, it } from 'vitest';
import {
  applyCosts,
  cssProfileCost,
  feeWaiverResult,
  fitBand,
  listBalance,
  testPolicyOf,
  WAIVER_MSG,
  type FitFacts,
} from './fit.ts';

/** A selective-but-not-extreme college with every range published (figures of the 2021-22 kind). */
const college = (over: Partial<FitFacts> = {}): FitFacts => ({
  admissionRate: 0.45,
  satReading25: 600,
  satReading75: 680,
  satMath25: 590,
  satMath75: 700,
  act25: 26,
  act75: 31,
  testRequirement: 5,
  dataYear: '2021-22',
  ...over,
});
const scores = (sat: [number | null, number | null] = [null, null], act: number | null = null) => ({
  satReadingWriting: sat[0],
  satMath: sat[1],
  act,
});

describe('the fit band', () => {
  it('is likely at an open-admissions college (OPENADMP), with no scores and no ranges (issue 34)', () => {
    const open = { admissionRate: null, dataYear: '2021-22', openAdmissions: true };
    const f = fitBand(null, open);
    expect(f.band).toBe('likely');
    expect(f.reason).toBe(
      'It admits every applicant (open admissions, College Scorecard, 2021-22): a likely college whatever your scores.',
    );
    expect(fitBand(scores([400, 400]), open, { testOptional: true }).band).toBe('likely');
    expect(fitBand(null, { ...open, openAdmissions: false }).band).toBe('not enough data');
  });

  it('is a reach for everyone under a 15% admission rate, whatever the scores', () => {
    const f = fitBand(scores([800, 800], 36), college({ admissionRate: 0.04 }));
    expect(f.band).toBe('reach');
    expect(f.reason).toBe(
      'It admits 4.0% of applicants (College Scorecard, 2021-22); under 15% is a reach for everyone.',
    );
    expect(fitBand(null, college({ admissionRate: 0.149 })).band).toBe('reach');
    expect(fitBand(scores([800, 800]), college({ admissionRate: 0.15 })).band).toBe('likely');
  });

  it('compares each section with its own range: one inside and one above is a target', () => {
    const f = fitBand(scores([650, 750]), college());
    expect(f.band).toBe('target');
    expect(f.sections.map((s) => [s.section, s.position])).toEqual([
      ['SAT Reading and Writing', 'within'],
      ['SAT Math', 'above'],
    ]);
    expect(f.reason).toMatch(/within or above the middle half .*College Scorecard, 2021-22/);
  });

  it('never adds sections into a composite: a strong math score does not carry a low reading score', () => {
    // 560 + 800 = 1360 is above 600 + 590 = 1190, yet reading sits below its own range.
    const f = fitBand(scores([560, 800]), college());
    expect(f.band).toBe('reach');
    expect(f.reason).toBe(
      'Your SAT Reading and Writing (560) is below the middle half of admitted students (600-680, College Scorecard, 2021-22).',
    );
  });

  it('is likely when every section is above its 75th percentile, and the edges count as inside', () => {
    expect(fitBand(scores([690, 710]), college()).band).toBe('likely');
    expect(fitBand(scores([680, 700]), college()).band).toBe('target');
    expect(fitBand(scores([600, 590]), college()).band).toBe('target');
    expect(fitBand(scores(undefined, 32), college()).reason).toMatch(/ACT composite is above the 75th/);
  });

  it('takes the stronger of two tests', () => {
    const f = fitBand(scores([550, 560], 32), college());
    expect(f.band).toBe('likely');
    expect(f.sections.map((s) => s.section)).toEqual(['ACT composite']);
  });

  it('says "not enough data" when the college publishes no range for the test taken', () => {
    const f = fitBand(scores(undefined, 30), college({ act25: null, act75: null }));
    expect(f.band).toBe('not enough data');
    expect(f.reason).toMatch(/publishes no score range .*2021-22/);
    // Missing ranges of one test do not hide the other's.
    expect(fitBand(scores([650, 650], 30), college({ act25: null, act75: null })).band).toBe('target');
  });

  it('says "not enough data" without scores, and never uses GPA', () => {
    expect(fitBand(null, college()).band).toBe('not enough data');
    expect(fitBand(scores(), college()).reason).toBe(
      'Add your SAT or ACT scores to compare them with the ranges of admitted students.',
    );
  });

  it('compares nothing at a test-blind college, and names where the policy comes from', () => {
    const grid = fitBand(scores([750, 780]), college({ gridTestPolicy: 'free', gridCycle: '2025-26' }));
    expect(grid.band).toBe('not enough data');
    expect(grid.policy).toEqual({ policy: 'not considered', source: 'Common App requirements grid 2025-26' });
    expect(grid.reason).toMatch(/does not consider test scores \(Common App requirements grid 2025-26\)/);
    const scorecard = fitBand(scores([750, 780]), college({ testRequirement: 3 }));
    expect(scorecard.band).toBe('not enough data');
    expect(scorecard.policy.source).toBe('College Scorecard test requirement (ADMCON7), 2021-22');
  });

  it('prefers the Common App grid (newer cycle) to ADMCON7, and knows no policy without either', () => {
    expect(testPolicyOf(college({ testRequirement: 1, gridTestPolicy: 'optional' })).policy).toBe('optional');
    expect(testPolicyOf(college({ testRequirement: 1 })).policy).toBe('required');
    expect(testPolicyOf(college({ testRequirement: 4 }))).toEqual({ policy: 'unknown', source: null });
  });

  it('respects the choice to apply test-optional, unless the college requires scores', () => {
    expect(fitBand(scores([750, 780]), college(), { testOptional: true }).band).toBe('not enough data');
    expect(fitBand(scores([750, 780]), college({ testRequirement: 1 }), { testOptional: true }).band).toBe(
      'likely',
    );
  });
});

describe('the balance of a list', () => {
  it('counts the bands and notes a list with no likely college or no financial safety', () => {
    const b = listBalance(
      [
        { band: 'reach', netPrice: 30_000 },
        { band: 'target', netPrice: 18_000 },
        { band: 'not enough data', netPrice: null },
      ],
      { budget: 15_000, incomeBandSet: true },
    );
    expect(b.counts).toEqual({ reach: 1, target: 1, likely: 0, 'not enough data': 1 });
    expect(b.notes).toEqual([
      'Your list has no likely college: add at least one where your scores are above the middle half.',
      'No college on your list has a net price for your income band within your budget of $15,000 a year: add a financial safety.',
    ]);
  });

  it('finds a financial safety at or under the budget, and asks for the budget when it is not set', () => {
    const items = [{ band: 'likely' as const, netPrice: 15_000 }];
    expect(listBalance(items, { budget: 15_000, incomeBandSet: true }).notes).toEqual([]);
    expect(listBalance(items, { budget: null, incomeBandSet: true }).notes).toEqual([
      'Set your income band and a yearly budget to check for a financial safety.',
    ]);
  });

  it('does not ask for a likely college once the student is admitted somewhere (issue 34)', () => {
    const items = [
      { band: 'reach' as const, netPrice: 10_000, admitted: true },
      { band: 'not enough data' as const, netPrice: null },
    ];
    expect(listBalance(items, { budget: 15_000, incomeBandSet: true }).notes).toEqual([]);
    expect(
      listBalance([{ ...items[0]!, admitted: false }], { budget: 15_000, incomeBandSet: true }).notes,
    ).toEqual([
      'Your list has no likely college: add at least one where your scores are above the middle half.',
    ]);
  });
});

describe('what applying costs', () => {
  it('adds the fees it knows and the CSS Profile schedule, and leaves unknowns out with a note', () => {
    const c = applyCosts([
      { name: 'Harvard University', scorecardId: 166027, applicationFee: 85, feeSource: 'grid 2025-26' },
      { name: 'Yale University', scorecardId: 130794, applicationFee: 80, feeSource: 'grid 2025-26' },
      { name: 'Somewhere College', scorecardId: 1, applicationFee: null, feeSource: null },
    ]);
    expect(c.feesTotal).toBe(165);
    expect(c.cssColleges).toBe(2);
    expect(c.cssTotal).toBe(25 + 16);
    expect(c.total).toBe(206);
    expect(c.lines[2]).toMatchObject({ applicationFee: null, cssProfile: null });
    expect(c.notes[0]).toBe(
      '1 college has no published application fee (No Info Found) and is left out of the total.',
    );
  });

  it('prices the CSS Profile per the schedule', () => {
    expect([0, 1, 3].map(cssProfileCost)).toEqual([0, 25, 57]);
  });

  it('tells which fee waivers the ticked criteria point to', () => {
    expect(feeWaiverResult([])).toEqual([WAIVER_MSG.none]);
    expect(feeWaiverResult(['lunch'])).toEqual([WAIVER_MSG.commonApp]);
    expect(feeWaiverResult(['cssIncome'])).toEqual([WAIVER_MSG.cssProfile]);
  });
});
