// Each service reads and writes its own Postgres schema only; the ingestion worker, which owns none, runs
// the services' job modules, so what it touches is bounded by theirs. Proven here from the SQL in the code:
// every table a service's code names (FROM, JOIN, INTO, UPDATE...) is in its own schema, and the worker
// names none.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MODULES } from '../../gateway/src/modules.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SCHEMAS = MODULES.flatMap((m) => (m.schema ? [m.schema] : []));

/** `FROM colleges.college`, `INSERT INTO essays.prompt`, `UPDATE user_data.note`... */
const TABLE_REF = new RegExp(
  `\\b(?:FROM|JOIN|INTO|UPDATE|TABLE|REFERENCES|ON)\\s+(${SCHEMAS.join('|')})\\.[a-z_]+`,
  'g',
);

function code(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) {
        if (e.name !== 'node_modules') walk(p);
      } else if (/\.ts$/.test(e.name) && !/\.test\.ts$/.test(e.name)) out.push(p);
    }
  };
  walk(path.join(ROOT, dir));
  return out;
}

/** Tables of other schemas a service's code names: `file: schema.table`. */
function foreignTables(files: string[], own: string | null): string[] {
  const found: string[] = [];
  for (const f of files) {
    for (const m of fs.readFileSync(f, 'utf8').matchAll(TABLE_REF)) {
      if (m[1] !== own) found.push(`${path.relative(ROOT, f)}: ${m[0]}`);
    }
  }
  return found;
}

describe('each service keeps to its own schema', () => {
  it('knows the schemas', () => {
    expect(SCHEMAS).toEqual(expect.arrayContaining(['auth', 'colleges', 'user_data', 'essays']));
  });

  it.each(MODULES.map((m) => [m.name, m.schema] as const))(
    '%s names no table outside its own schema',
    (name, schema) => {
      const files = code(`services/${name}/src`);
      expect(files.length).toBeGreaterThan(0);
      expect(foreignTables(files, schema)).toEqual([]);
    },
  );

  it('the worker writes through the job modules of the services that own the tables', () => {
    // It owns no schema: every table it reaches is named in a service's own job module.
    expect(MODULES.find((m) => m.name === 'ingestion-worker')?.schema).toBeNull();
    const colleges = code('services/colleges/src');
    expect(foreignTables(colleges, 'colleges')).toEqual([]);
    expect(colleges.some((f) => f.endsWith(path.join('jobs', 'worker.ts')))).toBe(true);
  });

  it('would notice a service reaching into another schema (the check itself works)', () => {
    const probe = path.join(ROOT, 'tests', 'ops', 'schema-access.test.ts');
    const found = foreignTables([probe], 'essays');
    // This file's own examples name colleges and user_data tables.
    expect(found.some((f) => f.includes('FROM colleges.college'))).toBe(true);
    expect(found.some((f) => f.includes('UPDATE user_data.note'))).toBe(true);
  });
});
