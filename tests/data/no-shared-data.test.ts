// The product ships its own data and the tests carry their own fixtures (tests/fixtures, derived by
// `npm run data:fixtures`): nothing the product runs, and no test, may read the `shared` folder beside the
// checkout, which a real deployment and a fresh clone do not have. Only the data tools (scripts/data/) and
// the developer tools bench/ and load/ read it.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CODE = /\.(ts|tsx|js|mjs|cjs|json|sql|html|css)$/;
const SHARED = /\.\.\/shared\b|\/shared\/data\b|SHARED_DATA_DIR/;
/** The public data files by name: a test that names one reads it, wherever the path comes from. */
const DATA_FILES =
  /scorecard_institutions_demo|scorecard_data_dictionary|scorecard_merged|cip2020_codes|common_app_deadlines_|essay_prompts_common_app/;
const GUARD = path.join(ROOT, 'tests/data/shared-guard.mjs');

/** Every code file under `dir`, tests and build output left out. */
function files(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) {
        if (!['node_modules', 'dist', 'test', '__tests__'].includes(e.name)) walk(p);
      } else if (CODE.test(e.name) && !/\.test\.tsx?$/.test(e.name)) out.push(p);
    }
  };
  walk(path.join(ROOT, dir));
  return out;
}

function productFiles(): string[] {
  const packages = fs.readdirSync(path.join(ROOT, 'packages')).map((p) => `packages/${p}`);
  const scripts = fs
    .readdirSync(path.join(ROOT, 'scripts'))
    .filter((f) => /^start.*\.ts$/.test(f))
    .map((f) => path.join(ROOT, 'scripts', f));
  return [...['services', 'gateway', 'web/src', 'scripts/lib', ...packages].flatMap(files), ...scripts];
}

const offenders = (list: string[]) =>
  list.filter((f) => SHARED.test(fs.readFileSync(f, 'utf8'))).map((f) => path.relative(ROOT, f));

describe('the product reads no shared data folder at run time', () => {
  it('has no reference to ../shared or /shared/data in product code', () => {
    const list = productFiles();
    expect(list.length).toBeGreaterThan(100);
    expect(list.some((f) => f.endsWith('services/colleges/src/snapshot.ts'))).toBe(true);
    expect(list.some((f) => f.endsWith('scripts/start.ts'))).toBe(true);
    expect(offenders(list)).toEqual([]);
  });

  it('has no shared data folder in the deployment files', () => {
    const deploy = [
      '.env.example',
      'docker-compose.yml',
      'infra/Dockerfile',
      ...fs
        .readdirSync(path.join(ROOT, 'k8s'), { recursive: true, encoding: 'utf8' })
        .filter((f) => /\.ya?ml$/.test(f))
        .map((f) => `k8s/${f}`),
    ].map((f) => path.join(ROOT, f));
    expect(deploy.filter((f) => f.endsWith('patch.yaml')).length).toBeGreaterThan(3);
    expect(offenders(deploy)).toEqual([]);
  });

  it('would notice one (the check itself works)', () => {
    const dir = fs.mkdtempSync(path.join(ROOT, 'services', '.probe-'));
    try {
      fs.writeFileSync(
        path.join(dir, 'x.ts'),
        "const f = new URL('../../../shared/data/x.csv', import.meta.url);\n",
      );
      expect(offenders(productFiles())).toContain(path.relative(ROOT, path.join(dir, 'x.ts')));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** Every test source: tests beside the code, the journeys in tests/, the test kit, setup and configs. */
function testFiles(): string[] {
  const out: string[] = [];
  const walk = (d: string, all: boolean) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) {
        if (!['node_modules', 'dist', 'fixtures'].includes(e.name)) walk(p, all);
      } else if (all ? /\.(ts|tsx|mjs|js)$/.test(e.name) : /\.test\.tsx?$/.test(e.name)) out.push(p);
    }
  };
  walk(path.join(ROOT, 'tests'), true);
  for (const d of ['packages', 'services', 'gateway', 'web/src']) walk(path.join(ROOT, d), false);
  return [...out, path.join(ROOT, 'vitest.config.ts'), path.join(ROOT, 'scripts/test.ts')];
}

/** The tests that use the public data (through their fixtures): once they read ../shared directly. */
const DATA_TESTS = [
  'packages/providers/src/scorecard.test.ts',
  'services/colleges/src/majors/majors.test.ts',
  'services/colleges/src/scorecard-import.test.ts',
  'services/colleges/src/scorecard-download.test.ts',
  'services/essays/src/categories.test.ts',
  'tests/data/common-app-match.test.ts',
];

describe('the tests need no shared data folder', () => {
  it('name neither the folder nor its files in any test, the test kit, the setup or the test config', () => {
    const self = [fileURLToPath(import.meta.url), GUARD];
    const list = testFiles().filter((f) => !self.includes(f));
    expect(list.some((f) => f.endsWith(path.join('tests', 'kit', 'src', 'fakes', 'scorecard-fake.ts')))).toBe(
      true,
    );
    expect(list.some((f) => f.endsWith('categories.test.ts'))).toBe(true);
    const named = list.filter((f) => {
      const text = fs.readFileSync(f, 'utf8');
      return SHARED.test(text) || DATA_FILES.test(text);
    });
    expect(named.map((f) => path.relative(ROOT, f))).toEqual([]);
  });

  it('pass with every access to it refused (the tests that use the public data, through their fixtures)', async () => {
    const log = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'shared-guard-')), 'reads.log');
    fs.writeFileSync(log, '');
    const run = await new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = spawn(
        process.execPath,
        [
          path.join(ROOT, 'node_modules/vitest/vitest.mjs'),
          'run',
          '--config',
          'tests/data/no-shared.vitest.config.ts',
          ...DATA_TESTS,
        ],
        {
          cwd: ROOT,
          env: {
            ...process.env,
            NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${GUARD}`.trim(),
            SHARED_GUARD_LOG: log,
            CI: '1',
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let out = '';
      child.stdout.on('data', (b: Buffer) => (out += b.toString()));
      child.stderr.on('data', (b: Buffer) => (out += b.toString()));
      child.on('close', (code) => resolve({ code, out }));
    });
    expect(fs.readFileSync(log, 'utf8')).toBe('');
    expect(run.code, run.out.slice(-3000)).toBe(0);
    // eslint-disable-next-line no-control-regex -- the reporter's colours
    expect(run.out.replace(/\x1b\[[0-9;]*m/g, '')).toMatch(
      new RegExp(`Test Files\\s+${DATA_TESTS.length} passed`),
    );
  }, 600_000);

  it('would notice an access (the guard itself works)', () => {
    const log = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'shared-guard-')), 'reads.log');
    const r = spawnSync(
      process.execPath,
      [
        '--import',
        GUARD,
        '-e',
        "require('node:fs').existsSync(require('node:path').resolve(process.cwd(), '../shared/data/README.md'))",
      ],
      { cwd: ROOT, env: { ...process.env, SHARED_GUARD_LOG: log }, encoding: 'utf8' },
    );
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('no shared data folder in a fresh clone');
    expect(fs.readFileSync(log, 'utf8')).toContain(path.join('shared', 'data', 'README.md'));
  });
});
