// Issue 37.1: docs that match the code. Every route a README names in code font (`GET /api/...`,
// `/internal/...`) is in the route table, and every SQL function it names (`schema.fn(`) is created by a
// migration. A README that keeps naming a route or function after the code dropped it fails here.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROUTES } from '@ct/contracts';
import { describe, expect, it } from 'vitest';
import { readmeOf, SERVICES, withRouteTable } from '../../scripts/readme-routes.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function files(dir: string, match: (name: string) => boolean): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...files(path, match));
    else if (match(name)) out.push(path);
  }
  return out;
}

const READMES = ['services', 'packages', 'gateway', 'web']
  .flatMap((d) => files(join(ROOT, d), (n) => n === 'README.md'))
  .concat([join(ROOT, 'README.md'), join(ROOT, 'ARCHITECTURE.md')]);

/** A route path as the table has it: `:param` segments match anything. */
const KNOWN = ROUTES.map((r) => new RegExp(`^${r.path.replace(/:\w+/g, '[^/]+')}$`));
/** What the gateway serves itself (not a service's route): the API docs, the session, the browser config. */
const GATEWAY_OWN = [/^\/docs(\/|$)/, /^\/me$/, /^\/public-config$/, /^\/admin\/queues/];
/** The schemas of the services (a `schema.function(` in code font names SQL). */
const SCHEMAS = ['colleges', 'user_data', 'essays', 'auth', 'admin'];

/** Paths named in code font: `/api/x`, `/internal/x`, with or without a method, query or body. */
function namedRoutes(text: string): string[] {
  const out: string[] = [];
  for (const [, span] of text.matchAll(/`([^`\n]+)`/g)) {
    for (const [, path] of span!.matchAll(
      /(?:^|[\s,(])((?:\/api)?\/internal\/[\w\-/:.]+|\/api\/[\w\-/:.]+)/g,
    ))
      out.push(path!.replace(/^\/api(?=\/)/, '').replace(/[./]$/, ''));
  }
  return out;
}

const MIGRATIONS = files(join(ROOT, 'services'), (n) => n.endsWith('.sql'))
  .map((f) => readFileSync(f, 'utf8'))
  .join('\n')
  .toLowerCase();

describe('READMEs name only what exists', () => {
  it('finds READMEs that name routes', () => {
    expect(READMES.filter((f) => namedRoutes(readFileSync(f, 'utf8')).length).length).toBeGreaterThan(3);
  });

  it.each(READMES.map((f) => [relative(ROOT, f), f] as const))('%s: every route it names exists', (_n, f) => {
    const text = readFileSync(f, 'utf8');
    const missing = namedRoutes(text).filter(
      (p) =>
        !GATEWAY_OWN.some((g) => g.test(p)) &&
        !KNOWN.some((k) => k.test(p)) &&
        // A family written as `/x/a|b`: each member must exist.
        !p.includes('|'),
    );
    expect(missing).toEqual([]);
  });

  it.each(READMES.map((f) => [relative(ROOT, f), f] as const))(
    '%s: every SQL function it names is created by a migration',
    (_n, f) => {
      const text = readFileSync(f, 'utf8');
      const named = [...text.matchAll(/`(\w+)\.(\w+)\(/g)]
        .filter(([, schema]) => SCHEMAS.includes(schema!))
        .map(([, s, n]) => `${s}.${n}`.toLowerCase());
      const bare = [...text.matchAll(/`(\w+)\.(\w+)`/g)]
        .filter(([, schema]) => SCHEMAS.includes(schema!))
        .map(([, s, n]) => `${s}.${n}`.toLowerCase())
        .filter((q) => MIGRATIONS.includes(`function ${q}`) || /find_|_fn$/.test(q));
      const missing = [...named, ...bare].filter(
        (q) => !MIGRATIONS.includes(`function ${q}`) && !MIGRATIONS.includes(q),
      );
      expect(missing).toEqual([]);
    },
  );
});

describe("each service README's route table is the code's", () => {
  it.each(SERVICES.map((s) => [s] as const))(
    '%s: the generated table matches the route table (run `npx tsx scripts/readme-routes.ts`)',
    (service) => {
      const readme = readFileSync(readmeOf(service), 'utf8');
      expect(readme).toBe(withRouteTable(readme, service));
    },
  );
});
