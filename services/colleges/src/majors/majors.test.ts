import fs from 'node:fs';
import { PUBLISHED } from '@ct/contracts';
import { CIP_CODES_CSV } from '@ct/testkit';
import { describe, expect, it } from 'vitest';
import { MAJORS } from './majors.ts';
import { resolveMajor, suggestMajors } from './suggest.ts';

/** RFC 4180 rows (quoted fields may hold commas, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field || row.length) rows.push([...row, field]);
  return rows;
}

/** Current CIP 2020 programs: six-digit codes, neither deleted nor moved away. */
function currentCipPrograms(): Map<string, string> {
  const [header, ...rows] = parseCsv(fs.readFileSync(CIP_CODES_CSV, 'utf8'));
  const col = (name: string) => header!.indexOf(name);
  const [code, action, title] = [col('CIPCode'), col('Action'), col('CIPTitle')];
  const out = new Map<string, string>();
  for (const r of rows) {
    if (!/^\d\d\.\d{4}$/.test(r[code] ?? '')) continue;
    if (r[action] === 'Deleted' || r[action] === 'Moved to') continue;
    out.set(r[code]!, r[title]!);
  }
  return out;
}

describe('the product list of majors', () => {
  it('has the published 165 majors, each code and name once', () => {
    expect(MAJORS).toHaveLength(PUBLISHED.majors);
    expect(new Set(MAJORS.map((m) => m.cip)).size).toBe(MAJORS.length);
    expect(new Set(MAJORS.map((m) => m.name.toLowerCase())).size).toBe(MAJORS.length);
  });

  it('matches the official CIP 2020 list code by code and title by title', () => {
    const official = currentCipPrograms();
    // The fixture's current six-digit programs (the majors and a sample; deleted and moved codes are in
    // the file too, and must be left out): the parse is right.
    expect(official.size).toBe(265);
    const wrong = MAJORS.filter((m) => official.get(m.cip) !== `${m.title}.`).map(
      (m) => `${m.cip} "${m.title}" (official: ${official.get(m.cip) ?? 'no such current code'})`,
    );
    expect(wrong).toEqual([]);
  });
});

describe('major suggestions', () => {
  const names = (q: string) => suggestMajors(q).map((m) => m.name);

  it('gives nothing under 3 characters and at most 10', () => {
    expect(names('co')).toEqual([]);
    expect(names('  ps ')).toEqual([]);
    expect(names('eng').length).toBe(10);
  });

  it('puts prefix matches first, then word matches, then similar names', () => {
    const list = names('bio');
    expect(list[0]).toBe('Biology');
    // "Marine Biology" matches by a word, after every name that starts with "bio"
    const firstWord = list.indexOf('Marine Biology');
    expect(firstWord).toBeGreaterThan(list.indexOf('Biochemistry'));
    expect(list.slice(0, firstWord).every((n) => n.toLowerCase().startsWith('bio'))).toBe(true);
    // misspelt: only similarity finds it
    expect(names('phsyics')).toEqual(['Physics']);
    expect(names('Psych')).toEqual(['Psychology', 'Clinical Psychology', 'Forensic Psychology']);
  });

  it('ignores case and punctuation and knows common abbreviations', () => {
    expect(names('PRE-MED')[0]).toBe('Pre-Medicine');
    expect(names('comp sci')[0]).toBe('Computer Science');
    expect(names('poli sci')[0]).toBe('Political Science');
  });

  it('resolves what a student typed to one major, or to none', () => {
    expect(resolveMajor('computer science')?.cip).toBe('11.0701');
    expect(resolveMajor('Computer and Information Sciences, General')?.cip).toBe('11.0101');
    expect(resolveMajor('CS')?.cip).toBe('11.0701');
    expect(resolveMajor('26.0101')?.name).toBe('Biology');
    expect(resolveMajor('Underwater Basket Weaving')).toBeNull();
  });
});
