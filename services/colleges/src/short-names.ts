import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { normaliseCollegeName } from '@ct/contracts';

/** One well-known short name ("MIT"), the College Scorecard institution it stands for, and its source. */
export interface ShortName {
  name: string;
  unitid: number;
  source: string;
}

export const SHORT_NAMES_FILE = fileURLToPath(new URL('../data/short-names.json', import.meta.url));

/** The shipped list of short names (data/short-names.json), read once. */
export function readShortNames(file = SHORT_NAMES_FILE): ShortName[] {
  const data = JSON.parse(fs.readFileSync(file, 'utf8')) as { names: ShortName[] };
  return data.names;
}

let byName: Map<string, number> | null = null;
let byUnitid: Map<number, string[]> | null = null;

/** The normalised short names of a College Scorecard institution ("ucla"), for suggestions. */
export function shortNamesOf(unitid: number): readonly string[] {
  if (!byUnitid) {
    byUnitid = new Map();
    for (const s of readShortNames()) {
      const list = byUnitid.get(s.unitid) ?? [];
      list.push(normaliseCollegeName(s.name));
      byUnitid.set(s.unitid, list);
    }
  }
  return byUnitid.get(unitid) ?? [];
}

/**
 * The institution (College Scorecard id) a curated short name stands for, by its normalised form
 * ("unc chapel hill"), or null. The resolver ranks it with official aliases: above names an admin
 * approved, so no AI name can take "Harvard" or "MIT" from the college that bears it.
 */
export function shortNameTarget(normalised: string): number | null {
  if (!byName) byName = new Map(readShortNames().map((s) => [normaliseCollegeName(s.name), s.unitid]));
  return byName.get(normalised) ?? null;
}
