// Every sentence the API says lives in one messages module per service (services/<name>/src/messages.ts,
// gateway/src/messages.ts, packages/service-kit/src/messages.ts) or in the contracts' catalogue
// (packages/contracts/src/messages.ts): a reply or refusal written inline in a route is refused here.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * A string, template or quoted literal, given as a reply's message, an AppError's text, or the reason a
 * job's failure (or a request row's) gives a student.
 */
const INLINE = [
  /new AppError\(\s*'[A-Z_]+',\s*['"`]/,
  /\bmessage:\s*['"`][A-Za-z]/,
  /\berror:\s*['"`][A-Za-z]/,
  /errorMessage:\s*['"`]/,
  /new PermanentJobError\(\s*['"`]/,
  /\breason:\s*['"`]/,
];

function sources(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) {
        // Command-line tools print to an operator's terminal, not through the API.
        if (!['node_modules', 'dist', 'cli'].includes(e.name)) walk(p);
      } else if (/\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) && e.name !== 'messages.ts') {
        out.push(p);
      }
    }
  };
  walk(path.join(ROOT, dir));
  return out;
}

function inlineMessages(files: string[]): string[] {
  const found: string[] = [];
  for (const f of files) {
    fs.readFileSync(f, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (INLINE.some((re) => re.test(line)))
          found.push(`${path.relative(ROOT, f)}:${i + 1}: ${line.trim()}`);
      });
  }
  return found;
}

const serverCode = () => [
  ...fs.readdirSync(path.join(ROOT, 'services')).flatMap((s) => sources(`services/${s}/src`)),
  ...sources('gateway/src'),
  ...sources('packages/service-kit/src'),
  ...sources('packages/contracts/src'),
];

describe('messages live in one module per service', () => {
  it('has no reply or refusal written inline in server code', () => {
    const files = serverCode();
    expect(files.some((f) => f.endsWith(path.join('user-data', 'src', 'routes', 'notes.ts')))).toBe(true);
    expect(inlineMessages(files)).toEqual([]);
  });

  it('has a messages module in every service that says anything of its own', () => {
    for (const s of ['auth', 'colleges', 'user-data', 'essays', 'admin'])
      expect(fs.existsSync(path.join(ROOT, 'services', s, 'src', 'messages.ts')), s).toBe(true);
  });

  it('would notice one (the check itself works)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'messages-probe-'));
    try {
      const f = path.join(dir, 'x.ts');
      fs.writeFileSync(
        f,
        "throw new AppError('NOT_FOUND', `No such ${thing}`);\nreturn { message: 'Done' };\n" +
          "throw new PermanentJobError('No provider');\nawait report({ state: 'failed', reason: `Gone` });\n",
      );
      expect(inlineMessages([f])).toHaveLength(4);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
