// The product ships its own data: nothing it runs may read the `shared` folder beside the checkout, which
// a real deployment does not have. Tests and tools (tests/, scripts/data/, tests/kit, load/, bench/)
// may read it.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CODE = /\.(ts|tsx|js|mjs|cjs|json|sql|html|css)$/;
const SHARED = /\.\.\/shared\b|\/shared\/data\b|SHARED_DATA_DIR/;

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
