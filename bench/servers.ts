// The servers a benchmark measures, each as the user runs it and in a process group of its own: `npm start`
// (the embedded run), `npm run start:distributed`, and a bare Fastify hello as the reference. Output goes
// to a log file (the benchmark reads it afterwards, e.g. for the first-start snapshot line). With
// BENCH_CPU_PROF=<dir>, the gateway and every service process write a V8 CPU profile there when they stop
// (CPU_PROF_DIR of scripts/lib/stack.ts; summarise them with `npx tsx bench/cpuprofile.ts <dir>`).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../scripts/lib/stack.ts';

export interface BenchServer {
  name: string;
  url: string;
  logFile: string;
  child: ChildProcess;
  /** Milliseconds from spawn until the health URL first answered 200. */
  msToHealthy: number;
  /** With `waitReady`: milliseconds from spawn until /api/readyz first answered 200. */
  msToReady?: number;
  /** CPU seconds used so far by every process of the server's process group. */
  cpuSeconds(): number;
  /** The same by process (the gateway, each service, the launchers). */
  cpuParts(): Map<string, number>;
  /** The log so far. */
  log(): string;
  /** Ctrl+C to the whole process group, as a user stops it; SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

/** Starts `command` detached (its own process group), its stdout and stderr appended to `logFile`. */
function spawnGroup(
  command: string,
  args: string[],
  env: Record<string, string>,
  logFile: string,
): ChildProcess {
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const fd = fs.openSync(logFile, 'a');
  const profDir = process.env.BENCH_CPU_PROF;
  const child = spawn(command, args, {
    cwd: ROOT,
    env: {
      ...process.env,
      ...(profDir ? { CPU_PROF_DIR: path.resolve(profDir) } : {}),
      ...env,
    },
    stdio: ['ignore', fd, fd],
    detached: true,
  });
  fs.closeSync(fd);
  return child;
}

const CLOCK_TICKS = 100; // USER_HZ of /proc/<pid>/stat on Linux

/** The ids of the live processes, from /proc (none off Linux). */
function livePids(): string[] {
  try {
    return fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return [];
  }
}

/** User + system CPU seconds of a process from its `/proc/<pid>/stat` fields. */
const cpuOf = (f: string[]) => (Number(f[11]) + Number(f[12])) / CLOCK_TICKS;

/**
 * CPU seconds (user + system) of the live processes of a process group, from /proc: noise-robust where
 * req/s are not, since what other programs on the machine take does not count. Linux only (0 elsewhere).
 */
export function groupCpuSeconds(pgid: number): number {
  let total = 0;
  for (const pid of livePids()) {
    const p = procStat(pid);
    if (p && Number(p.f[2]) === pgid) total += cpuOf(p.f);
  }
  return total;
}

/** `/proc/<pid>/stat` fields from the state on, and the process's command line (null when it is gone). */
function procStat(pid: string): { f: string[]; cmdline: () => string } | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return {
      f: stat.slice(stat.lastIndexOf(')') + 2).split(' '),
      cmdline: () => fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' '),
    };
  } catch {
    return null;
  }
}

/** What a process of a server's group is, from its command line: a service's or the gateway's name. */
function processLabel(cmdline: string): string {
  const m = /(?:services\/([a-z-]+)|(gateway))\/src\//.exec(cmdline);
  return m ? (m[1] ?? m[2]!) : 'other (npm, launcher)';
}

/** CPU seconds by process of a process group (the gateway, each service, the launchers), from /proc. */
export function groupCpuByProcess(pgid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const pid of livePids()) {
    const p = procStat(pid);
    if (!p || Number(p.f[2]) !== pgid) continue;
    try {
      const label = processLabel(p.cmdline());
      out.set(label, (out.get(label) ?? 0) + cpuOf(p.f));
    } catch {
      /* exited meanwhile */
    }
  }
  return out;
}

/**
 * CPU seconds of the Postgres backends serving `database` (a server on this machine: its backends are
 * processes named `postgres: ... <database> <client>`), so that a run's CPU per request includes the
 * database's share. Cumulative over every backend seen, so one that exits between calls still counts.
 */
export function postgresCpu(database: string): () => number {
  const seen = new Map<string, number>();
  const marker = ` ${database} `;
  return () => {
    for (const pid of livePids()) {
      const p = procStat(pid);
      if (!p) continue;
      try {
        if (!p.cmdline().startsWith('postgres:') || !p.cmdline().includes(marker)) continue;
      } catch {
        continue;
      }
      seen.set(pid, cpuOf(p.f));
    }
    let total = 0;
    for (const s of seen.values()) total += s;
    return total;
  };
}

const exited = (c: ChildProcess) => c.exitCode !== null || c.signalCode !== null;

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    /* already gone */
  }
}

/** Polls `url` until it answers 200; returns the milliseconds since `since`. */
async function waitHealthy(
  url: string,
  child: ChildProcess,
  logFile: string,
  since: number,
  timeoutMs: number,
): Promise<number> {
  const deadline = since + timeoutMs;
  while (performance.now() < deadline) {
    if (exited(child)) {
      throw new Error(`${url}: the server exited (${child.exitCode}):\n${fs.readFileSync(logFile, 'utf8')}`);
    }
    try {
      const r = await fetch(url, { signal: AbortSignal.timeout(1000) });
      if (r.ok) return performance.now() - since;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  signalGroup(child, 'SIGKILL');
  throw new Error(`${url} did not answer within ${timeoutMs} ms:\n${fs.readFileSync(logFile, 'utf8')}`);
}

async function launch(opts: {
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  url: string;
  healthPath: string;
  readyPath?: string;
  logFile: string;
  timeoutMs?: number;
}): Promise<BenchServer> {
  const started = performance.now();
  const child = spawnGroup(opts.command, opts.args, opts.env, opts.logFile);
  const msToHealthy = await waitHealthy(
    `${opts.url}${opts.healthPath}`,
    child,
    opts.logFile,
    started,
    opts.timeoutMs ?? 180_000,
  );
  const msToReady = opts.readyPath
    ? await waitHealthy(
        `${opts.url}${opts.readyPath}`,
        child,
        opts.logFile,
        started,
        opts.timeoutMs ?? 180_000,
      )
    : undefined;
  return {
    name: opts.name,
    url: opts.url,
    logFile: opts.logFile,
    child,
    msToHealthy,
    ...(msToReady !== undefined ? { msToReady } : {}),
    cpuSeconds: () => groupCpuSeconds(child.pid!),
    cpuParts: () => groupCpuByProcess(child.pid!),
    log: () => fs.readFileSync(opts.logFile, 'utf8'),
    async stop(graceMs = 30_000) {
      if (exited(child)) return;
      const done = new Promise<void>((r) => child.once('exit', () => r()));
      signalGroup(child, 'SIGINT');
      const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), graceMs);
      await done;
      clearTimeout(timer);
      // The npm wrapper can exit before the processes it started: give them the grace period too.
      const until = Date.now() + graceMs;
      while (Date.now() < until) {
        try {
          process.kill(-child.pid!, 0);
        } catch {
          return;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      signalGroup(child, 'SIGKILL');
    },
  };
}

/**
 * `npm start` on its own port and data folder, with its default logging (info). `env` adds what the run
 * needs, such as FIREBASE_AUTH_EMULATOR_HOST (then npm start uses that emulator instead of starting one).
 */
export function startEmbedded(opts: {
  port: number;
  dataDir: string;
  logFile: string;
  env?: Record<string, string>;
  /** Also wait for /api/readyz (store, queue and the Auth emulator answer). */
  waitReady?: boolean;
}): Promise<BenchServer> {
  const url = `http://127.0.0.1:${opts.port}`;
  return launch({
    name: 'embedded',
    command: 'npm',
    args: ['start', '--silent'],
    env: {
      PORT: String(opts.port),
      DATA_DIR: opts.dataDir,
      DATABASE_URL: '',
      REDIS_URL: '',
      LOG_LEVEL: '',
      ...opts.env,
    },
    url,
    healthPath: '/api/healthz',
    ...(opts.waitReady ? { readyPath: '/api/readyz' } : {}),
    logFile: opts.logFile,
  });
}

/** `npm run start:distributed`: every service its own process (ports port..port+6), default logging. */
export function startDistributedRun(opts: {
  port: number;
  databaseUrl: string;
  redisUrl: string;
  queuePrefix: string;
  logFile: string;
  env?: Record<string, string>;
}): Promise<BenchServer> {
  const url = `http://127.0.0.1:${opts.port}`;
  return launch({
    name: 'distributed',
    command: 'npm',
    args: ['run', 'start:distributed', '--silent'],
    env: {
      PORT: String(opts.port),
      DATABASE_URL: opts.databaseUrl,
      REDIS_URL: opts.redisUrl,
      QUEUE_PREFIX: opts.queuePrefix,
      LOG_LEVEL: '',
      ...opts.env,
    },
    url,
    healthPath: '/api/healthz',
    logFile: opts.logFile,
  });
}

/** The reference: Fastify with one hello route and nothing else, in a process of its own. */
export function startBare(opts: { port: number; logFile: string }): Promise<BenchServer> {
  const url = `http://127.0.0.1:${opts.port}`;
  return launch({
    name: 'bare Fastify',
    command: process.execPath,
    args: ['--import', 'tsx', path.join(ROOT, 'bench/bare-server.ts')],
    env: { PORT: String(opts.port) },
    url,
    healthPath: '/hello',
    logFile: opts.logFile,
  });
}

/**
 * The distributed floor: bench/floor-service.ts (bare Fastify, the same SQL as a prepared statement on
 * `databaseUrl`) on `port + 1`, behind bench/floor-proxy.ts (bare Fastify, undici keep-alive pool) on
 * `port`, each a process of its own; CPU by process as "floor proxy" and "floor service".
 */
export async function startFloor(opts: {
  port: number;
  databaseUrl: string;
  logDir: string;
}): Promise<BenchServer> {
  const script = (f: string) => ['--import', 'tsx', path.join(ROOT, 'bench', f)];
  const serviceUrl = `http://127.0.0.1:${opts.port + 1}`;
  const service = await launch({
    name: 'floor service',
    command: process.execPath,
    args: script('floor-service.ts'),
    env: { PORT: String(opts.port + 1), DATABASE_URL: opts.databaseUrl },
    url: serviceUrl,
    healthPath: '/healthz',
    logFile: path.join(opts.logDir, 'floor-service.log'),
  });
  let proxy: BenchServer;
  try {
    proxy = await launch({
      name: 'floor proxy',
      command: process.execPath,
      args: script('floor-proxy.ts'),
      env: { PORT: String(opts.port), UPSTREAM_URL: serviceUrl },
      url: `http://127.0.0.1:${opts.port}`,
      healthPath: '/hello',
      logFile: path.join(opts.logDir, 'floor-proxy.log'),
    });
  } catch (err) {
    await service.stop();
    throw err;
  }
  return {
    ...proxy,
    name: 'distributed floor',
    cpuSeconds: () => proxy.cpuSeconds() + service.cpuSeconds(),
    cpuParts: () =>
      new Map([
        ['floor proxy', proxy.cpuSeconds()],
        ['floor service', service.cpuSeconds()],
      ]),
    log: () => `${proxy.log()}\n${service.log()}`,
    async stop(graceMs) {
      await proxy.stop(graceMs);
      await service.stop(graceMs);
    },
  };
}
