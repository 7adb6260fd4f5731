import type { College, CollegeFactsAnswer } from '@ct/contracts';
import { PLAN_TYPE_MEANINGS, planTypeOf, samePlanType, type PlanType } from '@ct/contracts/season';
import { buildFactsAnswer } from '@ct/testkit';
import { describe, expect, it } from 'vitest';
import { assembleCollege, mergeEnrichmentHeld } from './college-document.ts';
import { CommonAppGrid, lastCycleNote } from './common-app-grid.ts';
import { isOfficialSource } from './source-order.ts';

const NOW = new Date('2026-11-29T12:00:00Z');
const grid = await CommonAppGrid.shipped();
const HARVARD = 166027;
const page = 'https://college.harvard.edu/admissions/apply/first-year-applicants';

/** A college as the snapshot load stores it: the grid's deadlines and requirements, no answer yet. */
function fromSnapshot(id: number): College {
  const e = grid.entry(id)!;
  return assembleCollege({
    requestedName: e.name,
    government: null,
    facts: null,
    local: grid.find(e.name, [], null, null, id, NOW),
    gatheredAt: NOW.toISOString(),
  }).college;
}

/** A college as the bulk import stores it before its first search: no deadlines yet. */
function withoutDeadlines(id: number): College {
  const e = grid.entry(id)!;
  return assembleCollege({
    requestedName: e.name,
    government: null,
    facts: null,
    factsReason: 'gathered the first time a student searches for this college',
    gatheredAt: NOW.toISOString(),
  }).college;
}

/** The same college gathered again from its own pages, with what the answer says. */
function enriched(id: number, over: Partial<CollegeFactsAnswer>, stored: College = fromSnapshot(id)) {
  const e = grid.entry(id)!;
  const incoming = assembleCollege({
    requestedName: e.name,
    government: null,
    facts: { answer: buildFactsAnswer({ officialName: e.name, ...over }), sources: [] },
    local: grid.find(e.name, [], null, null, id, NOW),
    gatheredAt: NOW.toISOString(),
  });
  const merged = mergeEnrichmentHeld(stored, incoming.college);
  return { ...merged, heldWhenBuilt: incoming.held };
}

const typesShown = (c: College) => c.info.deadlines.map((d) => planTypeOf(d.type));

describe('the order of sources (issue 44)', () => {
  it("keeps Harvard's Restrictive Early Action when an answer says Early Decision, and holds the answer", () => {
    const { college, held, heldWhenBuilt } = enriched(HARVARD, {
      deadlines: {
        value: [
          { type: 'Early Decision', date: '2026-11-01' },
          { type: 'Regular Decision', date: '2027-01-01' },
        ],
        sourceUrl: page,
      },
    });
    expect(college.info.deadlines).toEqual([
      { type: 'Restrictive Early Action', date: '2025-11-01', note: lastCycleNote('2025-26') },
      // A newer cycle's date of a plan the grid names, from the college's own page.
      { type: 'Regular Decision', date: '2027-01-01' },
    ]);
    expect(isOfficialSource(college.sources['info.deadlines'])).toBe(true);
    expect(college.sources['info.deadlines.1']!.url).toBe(page);
    const expected = {
      kind: 'deadlines',
      value: [{ type: 'Early Decision', date: '2026-11-01' }],
      sourceUrl: page,
      reason:
        'It contradicts the official deadlines, which outrank an AI answer: Restrictive Early Action: ' +
        '2025-11-01; Regular Decision: 2026-01-01 (source: Common App requirements grid 2025-26 ' +
        '(https://content.commonapp.org/Files/ReqGrid.pdf)).',
    };
    expect(heldWhenBuilt).toEqual([expected]);
    expect(held).toEqual([]);
  });

  it("keeps the grid's fee and test policy when an answer states others, and holds them with both values", () => {
    const { college, heldWhenBuilt } = enriched(HARVARD, {
      requirements: {
        value: {
          transcripts: 'Official transcript',
          SAT_ACT: 'Test-optional: scores are not required',
          teacherRecommendations: null,
          applicationFee: '$105',
        },
        sourceUrl: page,
      },
    });
    expect(college.info.requirements).toMatchObject({
      SAT_ACT: 'Required',
      applicationFee: '$90',
      applicationFeeUsd: 90,
      testPolicy: 'required',
      transcripts: 'Official transcript',
    });
    expect(heldWhenBuilt).toEqual([
      expect.objectContaining({
        kind: 'requirements',
        value: { SAT_ACT: 'Test-optional: scores are not required', applicationFee: '$105' },
        reason: expect.stringMatching(/SAT_ACT: Required; applicationFee: \$90 \(source: Common App/),
      }),
    ]);
  });

  it("shows an answer's date of this cycle for a plan the grid names, whatever the college held before", () => {
    const YALE = 130794; // grid: REA 2025-11-01, RD 2026-01-02, both last cycle's
    const yalePage = 'https://admissions.yale.edu/dates-deadlines';
    const answer = {
      deadlines: { value: [{ type: 'Single-Choice Early Action', date: '2026-11-01' }], sourceUrl: yalePage },
    };
    const expected = [
      { type: 'Restrictive Early Action', date: '2026-11-01' },
      { type: 'Regular Decision', date: '2026-01-02', note: lastCycleNote('2025-26') },
    ];
    // From the bulk import (no deadlines yet), from the snapshot (the grid's), and gathered once more.
    const first = enriched(YALE, answer, withoutDeadlines(YALE));
    const fromGrid = enriched(YALE, answer);
    const again = enriched(YALE, answer, first.college);
    for (const { college, held } of [first, fromGrid, again]) {
      expect(college.info.deadlines).toEqual(expected);
      expect(college.sources['info.deadlines.0']!.url).toBe(yalePage);
      expect(isOfficialSource(college.sources['info.deadlines'])).toBe(true);
      expect(held).toEqual([]);
    }
    // Another date of this cycle for the plan an answer already dated is held, and the shown one stays.
    const moved = enriched(
      YALE,
      {
        deadlines: { value: [{ type: 'Restrictive Early Action', date: '2026-11-15' }], sourceUrl: yalePage },
      },
      first.college,
    );
    expect(moved.college.info.deadlines).toEqual(expected);
    expect(moved.held).toEqual([
      expect.objectContaining({
        kind: 'deadlines',
        value: [{ type: 'Restrictive Early Action', date: '2026-11-15' }],
        // The date shown is the earlier answer's: the admin reads its page, not the grid, beside it.
        reason: expect.stringContaining(
          `Restrictive Early Action: 2026-11-01 (from ${yalePage}); Regular Decision`,
        ),
      }),
    ]);
  });

  it('shows the plan types of the grid for every grid college, before and after an answer contradicts them', () => {
    let checked = 0;
    for (const id of Object.keys(grid.file.colleges).map(Number)) {
      const local = grid.find('', [], null, null, id, NOW);
      if (!local?.deadlines.length) continue;
      const gridTypes = local.deadlines.map((d) => planTypeOf(d.type));
      // The plans of the grid file itself, each once: what a student must see, in the grid's words.
      const e = grid.entry(id)!;
      const filed = new Set<PlanType | null>([
        ...Object.keys(e.deadlines),
        ...Object.keys(e.annual_rules ?? {}).filter((k) => k in PLAN_TYPE_MEANINGS),
      ] as PlanType[]);
      const before = fromSnapshot(id);
      expect(new Set(typesShown(before).filter(Boolean)), e.name).toEqual(filed);
      expect(typesShown(before), e.name).toEqual(gridTypes);
      // The answer names a plan the grid does not (binding where the grid has none, when it can), and a
      // newer date of every plan it does.
      const has = (t: PlanType) => gridTypes.some((g) => g && samePlanType(g, t));
      const other = (['ED', 'ED2', 'EA', 'REA'] as const).find((t) => !has(t))!;
      const answer = [
        { type: PLAN_TYPE_MEANINGS[other].label, date: '2026-12-01' },
        ...local.deadlines.map((d) => ({ type: d.type, date: '2027-01-15' })),
      ];
      const { college } = enriched(id, { deadlines: { value: answer, sourceUrl: page } });
      const after = enriched(id, {});
      expect(typesShown(college), grid.entry(id)!.name).toEqual(gridTypes);
      expect(typesShown(after.college)).toEqual(gridTypes);
      // The same from the bulk import's college (no deadlines yet), and gathered once more after that.
      const first = enriched(id, { deadlines: { value: answer, sourceUrl: page } }, withoutDeadlines(id));
      expect(typesShown(first.college), e.name).toEqual(gridTypes);
      expect(first.college.info.deadlines.map((d) => d.date)).toEqual(
        college.info.deadlines.map((d) => d.date),
      );
      const again = enriched(id, { deadlines: { value: answer, sourceUrl: page } }, first.college);
      expect(again.college.info.deadlines, e.name).toEqual(first.college.info.deadlines);
      const binding = college.info.deadlines.some((d) => PLAN_TYPE_MEANINGS[planTypeOf(d.type)!]?.binding);
      expect(binding).toBe(gridTypes.some((t) => t && PLAN_TYPE_MEANINGS[t].binding));
      checked++;
    }
    expect(checked).toBeGreaterThan(1000);
  });
});
