/**
 * `npx tsx scripts/data/deadline-kinds.ts`: what each kind of date a student can miss covers in the
 * shipped data (issue 31), in counts of colleges of the Common App grid (packages/providers/data). Kinds
 * come from the deadline types the grid gives each college (through `gridFacts`, as a college document
 * gets them) classified as the deadlines service does (`kindOf`); the FAFSA opening (October 1) and the
 * May 1 reply date are the same for every college, by law and by custom.
 */
import { CommonAppGrid, gridFacts } from '@ct/providers';
import { kindOf } from '../../services/user-data/src/deadlines/next-deadlines.ts';

async function main() {
  const grid = await CommonAppGrid.shipped();
  // A day of the grid's own cycle, so that every dated plan of the grid is kept.
  const now = new Date('2025-09-01T12:00:00Z');
  const counts = new Map<string, Set<string>>();
  const count = (what: string, id: string) =>
    (counts.get(what) ?? counts.set(what, new Set()).get(what)!).add(id);
  const colleges = Object.entries(grid.file.colleges);
  for (const [id, entry] of colleges) {
    count('in the grid', id);
    for (const [round, v] of Object.entries(entry.deadlines))
      count(`plan ${round}: ${v === 'rolling' ? 'rolling' : 'dated'}`, id);
    for (const rule of Object.keys(entry.annual_rules ?? {})) count(`yearly rule ${rule}`, id);
    const facts = gridFacts(entry, grid.source, now);
    for (const d of facts?.deadlines ?? []) {
      const kind = kindOf(d.type);
      count(`kind ${kind}${d.date ? '' : ' (undated)'}`, id);
    }
    if (!facts?.deadlines.some((d) => d.date)) count('no dated deadline', id);
  }
  const kinds = ['application', 'priority-merit', 'css-profile', 'interview', 'reply', 'fafsa'];
  for (const k of kinds) if (!counts.has(`kind ${k}`)) counts.set(`kind ${k}`, new Set());
  console.log(`grid cycle ${grid.cycle}, ${colleges.length} colleges`);
  for (const [what, ids] of [...counts].sort(([a], [b]) => a.localeCompare(b)))
    console.log(`${what.padEnd(40)} ${ids.size}`);
  console.log(`${'FAFSA opens Oct 1 (by law, every college)'.padEnd(40)} ${colleges.length}`);
  console.log(`${'May 1 reply date (national, every college)'.padEnd(40)} ${colleges.length}`);
}

await main();
