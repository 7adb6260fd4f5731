import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

// Fault tests stop and crash their own Postgres and Redis, never the machine's shared ones (other test
// files keep running against those meanwhile).

const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';
const isRoot = process.getuid?.() === 0;

function run(cmd: string, args: string[], opts: { allowFail?: boolean } = {}): string {
  // initdb and the server refuse to run as root: use the postgres account then.
  const [c, a] = isRoot ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
  const r = spawnSync(c, a, { encoding: 'utf8', timeout: 60_000 });
  if (r.status !== 0 && !opts.allowFail)
    throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}): ${r.stderr || r.stdout}`);
  return `${r.stdout}${r.stderr}`;
}

export function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ host: '127.0.0.1', port });
    s.setTimeout(1000);
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
    s.once('timeout', () => (s.destroy(), resolve(false)));
  });
}

export interface PrivatePostgres {
  url: string;
  port: number;
  /** Stops the server: `immediate` is a crash (no checkpoint; recovery replays the WAL at start). */
  stop(mode?: 'fast' | 'immediate'): void;
  start(): void;
  running(): Promise<boolean>;
  /** Stops it for good and deletes its files. */
  destroy(): void;
}

/** A Postgres cluster of its own (initdb in a temp folder) on `port`, with pg_trgm like the shared one. */
export function startPrivatePostgres(port: number): PrivatePostgres {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ct-faults-pg-'));
  const data = path.join(dir, 'data');
  if (isRoot) spawnSync('chown', ['postgres:postgres', dir]);
  run(path.join(PG_BIN, 'initdb'), [
    '-D',
    data,
    '-A',
    'trust',
    '-U',
    'postgres',
    '-E',
    'UTF8',
    '--locale=C.UTF-8',
    '--no-sync',
  ]);
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=60 -c shared_buffers=32MB -c fsync=on`;
  const pgCtl = path.join(PG_BIN, 'pg_ctl');
  const start = () =>
    void run(pgCtl, ['-D', data, '-o', opts, '-l', path.join(dir, 'log'), '-w', '-t', '60', 'start']);
  const stop = (mode: 'fast' | 'immediate' = 'fast') =>
    void run(pgCtl, ['-D', data, '-m', mode, '-w', '-t', '60', 'stop'], { allowFail: true });
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    stop,
    start,
    running: () => portOpen(port),
    destroy() {
      stop('immediate');
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface PrivateRedis {
  url: string;
  /** SIGKILL: everything in it is gone (it keeps nothing on disk). */
  kill(): Promise<void>;
  start(): Promise<void>;
}

/** A redis-server of its own on `port`, without persistence, like the machine's. */
export async function startPrivateRedis(port: number): Promise<PrivateRedis> {
  let child: ChildProcess | null = null;
  const start = async () => {
    child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      {
        stdio: 'ignore',
      },
    );
    const deadline = Date.now() + 20_000;
    while (!(await portOpen(port))) {
      if (Date.now() > deadline) throw new Error(`redis-server on ${port} did not start`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const kill = async () => {
    const c = child;
    child = null;
    if (!c || c.exitCode !== null) return;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill('SIGKILL');
    await exited;
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, kill, start };
}
