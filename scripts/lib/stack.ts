import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVICES, serviceUrlVar } from '@ct/contracts';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/**
 * Where `npm start` keeps the Auth emulator's accounts between runs: one folder per emulator port
 * (`.data/auth-emulator` for the default 9099, `.data/auth-emulator-<port>` otherwise), so two runs on
 * different AUTH_EMULATOR_PORTs never export into each other's folder.
 */
export function authEmulatorDataDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.AUTH_EMULATOR_DATA_DIR) return path.resolve(ROOT, env.AUTH_EMULATOR_DATA_DIR);
  const port = Number(env.AUTH_EMULATOR_PORT ?? 9099);
  return path.resolve(ROOT, port === 9099 ? '.data/auth-emulator' : `.data/auth-emulator-${port}`);
}
export const AUTH_EMULATOR_DATA = authEmulatorDataDir();

function newestMtime(dir: string): number {
  let newest = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestMtime(p) : fs.statSync(p).mtimeMs);
  }
  return newest;
}

/** Whether web/dist is missing or older than the web app's or the contracts' sources. */
export function webBuildStale(): boolean {
  const index = path.join(ROOT, 'web/dist/index.html');
  return (
    !fs.existsSync(index) ||
    fs.statSync(index).mtimeMs <
      Math.max(
        newestMtime(path.join(ROOT, 'web/src')),
        newestMtime(path.join(ROOT, 'packages/contracts/src')),
      )
  );
}

/** Builds web/dist; returns the build's exit code. */
export function buildWeb(): number {
  // Always the production build, whatever NODE_ENV the app runs with (a development build is 60% larger).
  const r = spawnSync('npm', ['run', 'build', '-w', 'web', '--silent'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  return r.status ?? 1;
}

/** Each separately deployable process of the distributed run, with its entry point and default port. */
export const PROCESSES: readonly { name: string; entry: string; port: number; urlVar: string | null }[] = [
  ...SERVICES.map((s) => ({
    name: s.name,
    entry: `services/${s.name}/src/server.ts`,
    port: s.port,
    urlVar: serviceUrlVar(s.name),
  })),
  { name: 'gateway', entry: 'gateway/src/server.ts', port: 8080, urlVar: null },
];

export interface RunningProcess {
  name: string;
  port: number;
  child: ChildProcess;
  output: () => string;
}

export interface Stack {
  /** The gateway first, then every service replica, then any further gateways (`gateway-2`...). */
  processes: RunningProcess[];
  gatewayUrl: string;
  /**
   * Every gateway's URL (one unless `gateways` asked for more), the first being `gatewayUrl`; set by
   * `startDistributed`, absent from stacks a test makes itself.
   */
  gatewayUrls?: string[];
  env: Record<string, string>;
  /** SIGTERM to every process, gateway first; resolves when all have exited. */
  stop(): Promise<void>;
}

/**
 * Spawns one TypeScript entry point with tsx. Its output is kept (`output()`) and passed to `onLine`, or,
 * with `'inherit'`, written straight to this process's stdout and stderr: no copy through this process,
 * which under load would hold the child up on a full pipe (what `npm start` uses).
 */
export function spawnTs(
  entry: string,
  env: Record<string, string>,
  onLine?: ((line: string) => void) | 'inherit',
): RunningProcess & { name: string } {
  // CPU_PROF_DIR: each process writes a V8 CPU profile there when it exits (benchmarks' profiling).
  const prof = process.env.CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.CPU_PROF_DIR}`] : [];
  const inherit = onLine === 'inherit';
  const child = spawn(process.execPath, [...prof, '--import', 'tsx', path.join(ROOT, entry)], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', inherit ? 'inherit' : 'pipe', inherit ? 'inherit' : 'pipe'],
  });
  let out = '';
  const collect = (b: Buffer) => {
    const s = b.toString();
    out = (out + s).slice(-200_000);
    if (typeof onLine === 'function') for (const l of s.split('\n')) if (l.trim()) onLine(l);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  return { name: entry, port: Number(env.PORT), child, output: () => out };
}

export async function waitForHttp(url: string, timeoutMs = 60_000, proc?: RunningProcess): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc && proc.child.exitCode !== null) {
      throw new Error(
        `${proc.name} exited (${proc.child.exitCode}) before ${url} answered:\n${proc.output()}`,
      );
    }
    try {
      const r = await fetch(url, { signal: AbortSignal.timeout(1000) });
      if (r.ok) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs} ms${proc ? `:\n${proc.output()}` : ''}`);
}

export function stopProcess(
  p: RunningProcess,
  signal: NodeJS.Signals = 'SIGTERM',
  graceMs = 15_000,
): Promise<number | null> {
  if (p.child.exitCode !== null || p.child.signalCode !== null) return Promise.resolve(p.child.exitCode);
  return new Promise((resolve) => {
    const t = setTimeout(() => p.child.kill('SIGKILL'), graceMs);
    p.child.once('exit', (code) => {
      clearTimeout(t);
      resolve(code);
    });
    p.child.kill(signal);
  });
}

export interface StackOptions {
  /** Required: a real Postgres server. */
  databaseUrl: string;
  /** Required: Redis for BullMQ. */
  redisUrl: string;
  /** Port of the gateway; services use basePort+1..+6. */
  basePort?: number;
  env?: Record<string, string>;
  only?: string[];
  /** Every process writes straight to this process's stdout and stderr (`output()` gets nothing). */
  inheritOutput?: boolean;
  /**
   * Replicas per service (default 1): `{ 'user-data': 2 }` starts a second one, `user-data-2`, on
   * basePort+11 (further replicas +12...), and the service's URL variable lists both, so every caller
   * spreads its calls over them (`ReplicaSet`). Each replica gets the same variables.
   */
  replicas?: Partial<Record<string, number>>;
  /** Gateway processes (default 1); the second, `gateway-2`, on basePort+21, the third +22... */
  gateways?: number;
  /** Variables of one service's processes only, over `env` (`{ 'user-data': { LOG_LEVEL: 'info' } }`). */
  serviceEnv?: Partial<Record<string, Record<string, string>>>;
}

/** Starts every service, the worker and the gateway (GATEWAY_MODE=distributed) as separate processes. */
export async function startDistributed(opts: StackOptions): Promise<Stack> {
  const base = opts.basePort ?? 8080;
  const ports = Object.fromEntries(
    PROCESSES.map((p, i) => [p.name, p.name === 'gateway' ? base : base + i + 1]),
  );
  // The Auth emulator accepts unsigned tokens, so every process refuses it in production: a run against
  // the emulator is a development run.
  const emulated = Boolean(opts.env?.FIREBASE_AUTH_EMULATOR_HOST ?? process.env.FIREBASE_AUTH_EMULATOR_HOST);
  const env: Record<string, string> = {
    NODE_ENV: emulated ? 'development' : 'production',
    HOST: '127.0.0.1',
    DATABASE_URL: opts.databaseUrl,
    REDIS_URL: opts.redisUrl,
    INTERNAL_TOKEN: randomBytes(32).toString('hex'),
    OPS_SESSION_SECRET: randomBytes(32).toString('hex'),
    METRICS_TOKEN: randomBytes(32).toString('hex'),
    ...opts.env,
  };
  // Each service's replicas: its own port, then basePort+11, +12... for the second and later ones.
  let extraPort = base + 11;
  const replicaPorts = new Map<string, number[]>();
  for (const p of PROCESSES) {
    if (p.name === 'gateway') continue;
    const more = Array.from({ length: Math.max(0, (opts.replicas?.[p.name] ?? 1) - 1) }, () => extraPort++);
    replicaPorts.set(p.name, [ports[p.name]!, ...more]);
  }
  for (const p of PROCESSES)
    if (p.urlVar)
      env[p.urlVar] = replicaPorts
        .get(p.name)!
        .map((port) => `http://127.0.0.1:${port}`)
        .join(',');
  const gatewayPorts = [base, ...Array.from({ length: (opts.gateways ?? 1) - 1 }, (_, i) => base + 21 + i)];
  const procs: RunningProcess[] = [];
  const services = PROCESSES.filter(
    (p) => p.name !== 'gateway' && (!opts.only || opts.only.includes(p.name)),
  );
  const output = opts.inheritOutput ? 'inherit' : undefined;
  try {
    for (const p of services)
      replicaPorts.get(p.name)!.forEach((port, i) => {
        const proc = spawnTs(p.entry, { ...env, ...opts.serviceEnv?.[p.name], PORT: String(port) }, output);
        proc.name = i === 0 ? p.name : `${p.name}-${i + 1}`;
        procs.push(proc);
      });
    await Promise.all(procs.map((p) => waitForHttp(`http://127.0.0.1:${p.port}/healthz`, 90_000, p)));
    const gateways = gatewayPorts.map((port, i) => {
      const gw = spawnTs(
        'gateway/src/server.ts',
        { ...env, GATEWAY_MODE: 'distributed', PORT: String(port) },
        output,
      );
      gw.name = i === 0 ? 'gateway' : `gateway-${i + 1}`;
      return gw;
    });
    procs.unshift(gateways[0]!);
    procs.push(...gateways.slice(1));
    await Promise.all(
      gateways.map((gw) => waitForHttp(`http://127.0.0.1:${gw.port}/api/healthz`, 90_000, gw)),
    );
  } catch (err) {
    await Promise.all(procs.map((p) => stopProcess(p, 'SIGKILL')));
    throw err;
  }
  return {
    processes: procs,
    gatewayUrl: `http://127.0.0.1:${base}`,
    gatewayUrls: gatewayPorts.map((port) => `http://127.0.0.1:${port}`),
    env,
    async stop() {
      const gateways = procs.filter((p) => p.name === 'gateway' || p.name.startsWith('gateway-'));
      await Promise.all(gateways.map((p) => stopProcess(p)));
      await Promise.all(procs.filter((p) => !gateways.includes(p)).map((p) => stopProcess(p)));
    },
  };
}
