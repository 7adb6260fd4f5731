// infra/Dockerfile: no container engine runs here, so the file is checked for what matters (one shared
// base, multi-stage, non-root, production-only dependencies, every workspace's manifest) and the thing
// each image runs, the bundle from `npm run build`, is built and started for real.
import { randomBytes } from 'node:crypto';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { DockerfileParser, type Instruction } from 'dockerfile-ast';
import { freshDatabase, TEST_REDIS_URL, uniquePrefix, clearRedisPrefix } from '@ct/testkit';
import { describe, expect, it } from 'vitest';
import { stopProcess, waitForHttp, type RunningProcess } from '../../scripts/lib/stack.ts';
import { processSpecs, rel, ROOT, workspaces } from './lib/sources.ts';
import { ciNodeMajor } from './lib/node.ts';

const dockerfile = DockerfileParser.parse(fs.readFileSync(rel('infra/Dockerfile'), 'utf8'));
const ignore = fs.readFileSync(rel('infra/Dockerfile.dockerignore'), 'utf8').split('\n');
const specs = processSpecs();

/** Instructions of one build stage (from its FROM to the next). */
function stage(name: string): Instruction[] {
  const all = dockerfile.getInstructions();
  const start = all.findIndex(
    (i) => i.getKeyword() === 'FROM' && /\sAS\s+(\S+)$/i.exec(i.getArgumentsContent() ?? '')?.[1] === name,
  );
  if (start < 0) throw new Error(`no stage ${name}`);
  const end = all.findIndex((i, n) => n > start && i.getKeyword() === 'FROM');
  return all.slice(start, end < 0 ? undefined : end);
}
/** Each `kw` instruction of the stage as written after the keyword, flags included. */
const args = (ins: Instruction[], kw: string) =>
  ins
    .filter((i) => i.getKeyword() === kw)
    .map((i) =>
      i
        .getTextContent()
        .replace(/\\\n/g, ' ')
        .replace(/\s+/g, ' ')
        .slice(kw.length + 1)
        .trim(),
    );

/**
 * Whether the dockerignore keeps a path out of the build context, as Docker reads it: each pattern is
 * matched against the path and its parent folders, `*` within one name and `**` across names, and the last
 * matching line wins (`!` lets a path back in).
 */
function ignored(file: string): boolean {
  const rules = ignore
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const negated = l.startsWith('!');
      const glob = (negated ? l.slice(1) : l).replace(/^\/+|\/+$/g, '');
      const re = glob
        .split('/')
        .map((part) =>
          part === '**'
            ? '.*'
            : part
                .replace(/[.+^${}()|[\]\\]/g, '\\$&')
                .replace(/\*/g, '[^/]*')
                .replace(/\?/g, '[^/]'),
        )
        .join('/')
        .replace(/\.\*\//g, '(.*/)?');
      return { negated, re: new RegExp(`^${re}$`) };
    });
  const parts = file.split('/');
  const prefixes = parts.map((_, i) => parts.slice(0, i + 1).join('/'));
  let out = false;
  for (const r of rules) if (prefixes.some((p) => r.re.test(p))) out = !r.negated;
  return out;
}

describe('infra/Dockerfile', () => {
  const froms = dockerfile.getFROMs();
  const runtime = ['service', 'gateway', 'auth-emulator'];

  it('is multi-stage with every image on one shared base', () => {
    expect(froms.length).toBeGreaterThanOrEqual(5);
    expect(froms[0]!.getBuildStage()).toBe('base');
    expect(froms[0]!.getImage()).toMatch(/^node:\$\{NODE_VERSION\}-bookworm-slim$/);
    for (const r of runtime) expect(froms.find((f) => f.getBuildStage() === r)?.getImage(), r).toBe('base');
    // Nothing else pulls a second base image.
    expect(froms.filter((f) => !['base', 'manifests', 'build'].includes(f.getImage() ?? '')).length).toBe(1);
  });

  it('runs the images the tests run on: the same Node major and the pinned firebase-tools', () => {
    const argsByName = Object.fromEntries(
      dockerfile
        .getARGs()
        .flatMap((a) =>
          a.getProperty()?.getValue() ? [[a.getProperty()!.getName(), a.getProperty()!.getValue()]] : [],
        ),
    );
    // The images run the Node major CI installs and tests on (tests/ops/node-version.test.ts).
    expect(String(argsByName.NODE_VERSION).split('.')[0]).toBe(ciNodeMajor());
    if (process.env.CI) expect(process.versions.node.split('.')[0]).toBe(ciNodeMajor());
    const root = JSON.parse(fs.readFileSync(rel('package.json'), 'utf8')) as {
      devDependencies: Record<string, string>;
    };
    expect(argsByName.FIREBASE_TOOLS_VERSION).toBe(root.devDependencies['firebase-tools']);
  });

  it.each(runtime)('%s: runs as the unprivileged node user', (r) => {
    const users = args(stage(r), 'USER');
    expect(users.at(-1)).toBe('node');
  });

  it('service images carry production dependencies only, and the bundle rather than the sources', () => {
    expect(args(stage('prod-deps'), 'RUN').join(' ')).toMatch(
      /npm ci --omit=dev --ignore-scripts -w "\$\{WORKSPACE\}"/,
    );
    for (const r of ['service', 'gateway']) {
      const copies = args(stage(r), 'COPY');
      expect(copies).toContain('--from=prod-deps /app/node_modules /app/node_modules');
      expect(copies.some((c) => c.startsWith('--from=build /app/node_modules'))).toBe(false);
      expect(args(stage(r), 'CMD').at(-1)).toBe('["node", "dist/server.js"]');
    }
    expect(args(stage('gateway'), 'COPY')).toContain('--from=build /app/web/dist /app/web/dist');
  });

  it('copies the manifest of every workspace before installing, so a new workspace cannot be forgotten', () => {
    const copied = args(stage('manifests'), 'COPY');
    for (const w of workspaces()) expect(copied, w).toContain(`${w}/package.json ${w}/`);
  });

  it('has every manifest it copies in the build context (the dockerignore leaves them in)', () => {
    const copied = args(stage('manifests'), 'COPY').flatMap((a) => a.split(' ').slice(0, -1));
    expect(copied).toContain('tests/kit/package.json');
    const excluded = copied.filter((f) => ignored(f));
    expect(excluded).toEqual([]);
    // The matcher itself: what the file keeps out stays out.
    expect(ignored('tests/api/colleges.test.ts')).toBe(true);
    expect(ignored('services/auth/node_modules/x/package.json')).toBe(true);
  });

  it('keeps local state, dependencies and secrets out of the build context', () => {
    for (const p of ['**/node_modules', '**/dist', '.git', '.env', '.data']) expect(ignore).toContain(p);
  });

  it.each(specs.map((p) => [p.name, p.workspace] as const))(
    '%s: `npm run build` bundles its server',
    (_, ws) => {
      const pkg = JSON.parse(fs.readFileSync(rel(ws, 'package.json'), 'utf8')) as {
        scripts: Record<string, string>;
      };
      const m = /^node (\S+build-service\.mjs) src\/server\.ts$/.exec(pkg.scripts.build ?? '');
      expect(m, `${ws} build script`).not.toBeNull();
      // The script path is relative to the workspace: it must point at the real script.
      expect(fs.existsSync(rel(ws, m![1]!))).toBe(true);
    },
  );
});

describe('the bundle an image runs', () => {
  it('builds, starts on real Postgres and Redis, serves health and metrics, and stops cleanly on SIGTERM', async () => {
    const build = spawnSync('npm', ['run', 'build', '-w', 'services/auth', '--silent'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(build.status, build.stderr).toBe(0);
    const bundle = rel('services/auth/dist/server.js');
    expect(fs.existsSync(bundle)).toBe(true);
    // Workspace packages are inlined: the image has no TypeScript sources to import.
    expect(fs.readFileSync(bundle, 'utf8')).not.toMatch(/from ['"]@ct\//);

    const db = await freshDatabase('bundle');
    const prefix = uniquePrefix('bundle');
    const port = 18097;
    const metricsToken = randomBytes(32).toString('hex');
    // Run from a copy outside the workspace's src, as in the image (bundle + package.json + migrations).
    const child = spawn(process.execPath, [bundle], {
      cwd: rel('services/auth'),
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        PORT: String(port),
        DATABASE_URL: db.url,
        REDIS_URL: TEST_REDIS_URL,
        QUEUE_PREFIX: prefix,
        INTERNAL_TOKEN: randomBytes(32).toString('hex'),
        METRICS_TOKEN: metricsToken,
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr.on('data', (b: Buffer) => (out += b.toString()));
    const proc: RunningProcess = { name: 'auth bundle', port, child, output: () => out };
    try {
      await waitForHttp(`http://127.0.0.1:${port}/readyz`, 60_000, proc);
      const metrics = await (
        await fetch(`http://127.0.0.1:${port}/metrics`, {
          headers: { authorization: `Bearer ${metricsToken}` },
        })
      ).text();
      expect(metrics).toMatch(/^college_ready_app_info\{service="auth",/m);
      // Its migrations ran from the folder next to the bundle.
      expect(out).toMatch(/migrations applied/);
      const code = await stopProcess(proc);
      expect(code).toBe(0);
      expect(out).toMatch(/SIGTERM received: shutting down/);
    } finally {
      await stopProcess(proc, 'SIGKILL');
      await db.drop();
      await clearRedisPrefix(prefix);
    }
  });
});
