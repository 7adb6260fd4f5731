import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadLocalDeadlines } from './local-deadlines.ts';

const FALL_2025 = new Date('2025-09-01T00:00:00Z');

describe('the Common App grid of the worker (LOCAL_DEADLINES_FILE)', () => {
  it('uses the grid shipped with the product by default, by Scorecard id', async () => {
    const { grid, problem } = await loadLocalDeadlines(undefined);
    expect(problem).toBeNull();
    expect(grid!.size).toBeGreaterThan(1000);
    const harvard = grid!.find('Harvard University', [], 'Cambridge', 'MA', 166027, FALL_2025)!;
    expect(harvard.deadlines.map((d) => d.type)).toEqual(['Restrictive Early Action', 'Regular Decision']);
    expect(harvard.requirements.teacherRecommendations).toBe('2 teacher evaluations required');
    expect(harvard.source).toEqual({
      url: 'https://content.commonapp.org/Files/ReqGrid.pdf',
      title: 'Common App requirements grid 2025-26',
    });
  });

  it('matches by name only a college without a Scorecard id, tolerating case, "The" and campus suffixes', async () => {
    const { grid } = await loadLocalDeadlines(undefined);
    expect(grid!.find('AMHERST COLLEGE', [], null, 'MA', null, FALL_2025)).not.toBeNull();
    expect(grid!.find('The Adelphi University', [], null, 'NY', null, FALL_2025)).not.toBeNull();
    expect(grid!.find('Qwxyzzy Imaginary Academy', [], null, null, null, FALL_2025)).toBeNull();
  });

  it('is turned off by "none", reads an operator file of the shipped shape, and reports a bad one', async () => {
    expect(await loadLocalDeadlines('none')).toEqual({ grid: null, problem: null });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ct-grid-'));
    try {
      const own = path.join(dir, 'grid.json');
      fs.writeFileSync(
        own,
        JSON.stringify({
          _meta: { cycle: '2026-27', source: 'https://example.org/grid.pdf' },
          colleges: {
            '166027': {
              name: 'Harvard University',
              system: 'common_app',
              deadlines: { RD: '2027-01-01' },
              fees: null,
              personal_essay: null,
              writing_supplement: null,
              courses_and_grades: null,
              portfolio: null,
              test_policy: 'required',
              tests_used: null,
              english_tests: null,
              recs: null,
              admission_type: null,
            },
          },
        }),
      );
      const { grid } = await loadLocalDeadlines(own);
      expect(grid!.size).toBe(1);
      const f = grid!.find('Harvard University', [], null, 'MA', 166027, new Date('2026-09-01T00:00:00Z'))!;
      expect(f.deadlines).toEqual([{ type: 'Regular Decision', date: '2027-01-01' }]);
      expect(f.source.title).toBe('Common App requirements grid 2026-27');

      const old = path.join(dir, 'raw.json');
      fs.writeFileSync(old, JSON.stringify({ _meta: {}, colleges: [{ name: 'Harvard University' }] }));
      expect((await loadLocalDeadlines(old)).problem).toMatch(
        /is not a Common App grid file keyed by UNITID/,
      );
      expect((await loadLocalDeadlines(path.join(dir, 'missing.json'))).problem).toMatch(/ENOENT/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
