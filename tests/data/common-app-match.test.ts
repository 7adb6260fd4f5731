import fs from 'node:fs';
import { CommonAppGrid, type GridFile } from '@ct/providers';
import { COMMON_APP_GRID_JSON } from '@ct/testkit';
import { describe, expect, it } from 'vitest';
import { GRID_OUTPUT, REPORT, runMatch } from '../../scripts/data/match-common-app.ts';

const shipped = JSON.parse(fs.readFileSync(GRID_OUTPUT, 'utf8')) as GridFile;
const report = fs.readFileSync(REPORT, 'utf8');

/** A count from the report's table: `| <label> | <n> |` (bold or not). */
function count(label: string): number {
  const row = report.split('\n').find((l) => l.replace(/\*/g, '').startsWith(`| ${label} |`));
  if (!row) throw new Error(`no "${label}" row in the report`);
  return Number(/\|\s*\**(\d+)/.exec(row.slice(label.length + 3))![1]);
}

describe('the shipped Common App grid facts and their match report', () => {
  it('holds as many matched entries and institutions as the report says', () => {
    expect(count('Real entries')).toBe(1147);
    expect(count('Matched') + count('Left out')).toBe(1147);
    expect(shipped._meta.matched).toMatchObject({ entries: 1147, matched: count('Matched') });
    const institutions = Object.keys(shipped.colleges).length;
    expect(report).toContain(`facts of ${institutions} institutions`);
    // Every reviewed rule's count adds up to the matched total.
    const byRule = report
      .split('\n')
      .filter((l) => l.startsWith('| by '))
      .map((l) => Number(/\|\s*(\d+)\s*\|$/.exec(l)![1]));
    expect(byRule.reduce((a, b) => a + b, 0)).toBe(count('Matched'));
    // Each left-out entry is listed with its reason.
    const left = report.slice(report.indexOf('## Left out')).split('\n## ')[0]!;
    expect(left.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| Grid name'))).toHaveLength(
      count('Left out'),
    );
  });

  it('is what the reviewed script makes from the grid (nobody edited it by hand)', () => {
    // Entries of the grid with their facts (tests/fixtures, `npm run data:fixtures`): the script matches
    // each of them to exactly what the shipped file holds, and leaves out the same ones.
    const fixture = JSON.parse(fs.readFileSync(COMMON_APP_GRID_JSON, 'utf8')) as {
      colleges: Array<{ name: string }>;
    };
    const { file, summary } = runMatch({ grid: COMMON_APP_GRID_JSON });
    const names = new Set(fixture.colleges.map((c) => c.name));
    const fromFixture = Object.keys(shipped.colleges).filter((id) => names.has(shipped.colleges[id]!.name));
    expect(summary.matched).toBeGreaterThan(50);
    expect(Object.keys(file.colleges).sort()).toEqual(fromFixture.sort());
    for (const [id, facts] of Object.entries(file.colleges))
      expect(JSON.parse(JSON.stringify(facts)), id).toEqual(shipped.colleges[id]);
    // The union entries the tests below name are among them.
    for (const id of ['166027', '170976', '110662', '122409']) expect(file.colleges[id], id).toBeDefined();
  });

  it('keeps the MIT notice and the source, and no essay prompt text', () => {
    expect(shipped._meta.notice).toMatch(/^Copyright \(c\) .*Permission is hereby granted, free of charge/s);
    expect(shipped._meta.origin).toMatchObject({ license: 'MIT', path: 'data/deadlines.json' });
    expect(shipped._meta.source).toBe('https://content.commonapp.org/Files/ReqGrid.pdf');
    for (const f of Object.values(shipped.colleges)) {
      expect(Object.keys(f)).not.toContain('essays');
      expect(Object.keys(f)).not.toContain('notes');
    }
  });

  it('finds colleges by UNITID, including every campus of a system-wide entry', () => {
    const grid = new CommonAppGrid(shipped);
    expect(grid.entry(166027)?.name).toBe('Harvard University');
    expect(grid.entry(170976)?.name).toBe('University of Michigan'); // the Ann Arbor flagship
    expect(grid.entry(110662)?.name).toBe('University of California (all campuses)'); // UCLA
    expect(grid.entry(122409)?.name).toBe('California State University (all campuses)'); // San Diego State
    // "Union College": the Common App member of the name (Schenectady, NY), not Union College (KY).
    expect(grid.entry(196866)?.name).toBe('Union College');
    expect(grid.entry(157863)).toBeNull();
  });

  it('gives all nine UC campuses the four Personal Insight Questions the grid states', () => {
    const grid = new CommonAppGrid(shipped);
    const uc = [110635, 110644, 110653, 110662, 110671, 110680, 110705, 110714, 445188];
    for (const id of uc) {
      const facts = grid.find('', [], null, null, id, new Date('2026-11-25T12:00:00Z'))!;
      expect(facts.requirements.personalEssay).toBe(
        'Required: 4 Personal Insight Questions (of 8, up to 350 words each)',
      );
    }
  });
});
