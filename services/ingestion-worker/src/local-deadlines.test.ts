import { describe, expect, it } from 'vitest';
import { DEFAULT_DEADLINES_FILE, LocalDeadlines } from './local-deadlines.ts';

const { grid, problem } = LocalDeadlines.load(DEFAULT_DEADLINES_FILE);

describe('Common App requirements grid (local deadlines)', () => {
  it('loads the shared data file', () => {
    expect(problem).toBeNull();
    expect(grid!.size).toBeGreaterThan(1000);
  });

  it('gives a college its deadlines with the rounds spelled out, and the grid as source', () => {
    const harvard = grid!.find('Harvard University', [], 'Cambridge', 'MA')!;
    expect(harvard.deadlines).toEqual([
      { type: 'Restrictive Early Action', date: '2025-11-01' },
      { type: 'Regular Decision', date: '2026-01-01' },
    ]);
    expect(harvard.requirements).toEqual({
      transcripts: null,
      SAT_ACT: 'Required',
      teacherRecommendations: '2 teacher evaluations required',
    });
    expect(harvard.source).toEqual({
      url: 'https://content.commonapp.org/Files/ReqGrid.pdf',
      title: 'Common App requirements grid 2025-26',
    });
  });

  it('matches names that differ by case, punctuation, a leading "The" or a campus suffix', () => {
    expect(grid!.find('AMHERST COLLEGE', [], null, 'MA')).not.toBeNull();
    expect(grid!.find('The Adelphi University', [], null, 'NY')).not.toBeNull();
    expect(
      grid!.find('Arizona State University-Campus Immersion', ['Arizona State University'], 'Tempe', 'AZ'),
    ).not.toBeNull();
  });

  it('tells same-named colleges apart by state, and marks rolling deadlines as such', () => {
    const indiana = grid!.find('Anderson University', [], 'Anderson', 'IN')!;
    expect(indiana.deadlines).toEqual([{ type: 'Regular Decision (rolling)', date: null }]);
    expect(grid!.find('Anderson University', [], 'Anderson', 'TX')).toBeNull();
  });

  it('finds nothing for a college it does not list (no guessing)', () => {
    expect(grid!.find('Qwxyzzy Imaginary Academy', [], null, null)).toBeNull();
    expect(grid!.find('University of Nowhere', [], 'Nowhere', 'ZZ')).toBeNull();
  });
});
