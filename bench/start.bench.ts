// Cold start of `npm start`, as a user runs it after `npm install` (the web app already built): from the
// command until the app is ready to use, i.e. GET /api/readyz answers 200 (store, queue and npm start's own
// Auth emulator reachable; /api/healthz, the process alone, is shown too). Twice: on an empty data
// folder (the first start ever, which creates the database and loads what a first start loads) and on the
// data folder that first start left behind.
//
// First-start snapshot load: when the first start loads a shipped Scorecard snapshot, the figure is read
// from that start's log (see `snapshotLine`); until a snapshot ships, the first start has nothing to load
// and the figure says so.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildWeb, webBuildStale } from '../scripts/lib/stack.ts';
import { detail, figure, fmt } from './lib.ts';
import { startEmbedded, type BenchServer } from './servers.ts';

export const FIGURES = ['cold-start', 'first-start'] as const;

const TARGET_MS = 10_000;
const BASE_PORT = Number(process.env.BENCH_PORT ?? 20100);
const PORT = BASE_PORT + 30;
const EMULATOR_PORT = BASE_PORT + 40; // and the two after it (hub, logging)

interface LogLine {
  time?: number;
  msg?: string;
  [field: string]: unknown;
}

function logLines(text: string): LogLine[] {
  return text
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .flatMap((l) => {
      try {
        return [JSON.parse(l) as LogLine];
      } catch {
        return [];
      }
    });
}

/**
 * The hook for the first-start snapshot load: the log line that says a snapshot finished loading, i.e. a
 * JSON line whose message names a snapshot and says it is loaded / imported / done. Its `ms`, `durationMs`
 * or `seconds` field gives the load's own time when present; its `time` stamp the moment it finished.
 */
export function snapshotLine(text: string): LogLine | null {
  return (
    logLines(text).find(
      (l) => /snapshot/i.test(l.msg ?? '') && /(loaded|imported|done|finished|complete)/i.test(l.msg ?? ''),
    ) ?? null
  );
}

/** Whether the log says a snapshot load began (so it is worth waiting for its end). */
const snapshotStarted = (text: string) => logLines(text).some((l) => /snapshot/i.test(l.msg ?? ''));

function loadMs(line: LogLine): number | null {
  for (const [k, scale] of [
    ['ms', 1],
    ['durationMs', 1],
    ['seconds', 1000],
  ] as const) {
    if (typeof line[k] === 'number') return (line[k] as number) * scale;
  }
  return null;
}

async function coldStart(
  dataDir: string,
  work: string,
  label: string,
): Promise<{ server: BenchServer; startedAt: number }> {
  const startedAt = Date.now();
  const server = await startEmbedded({
    port: PORT,
    dataDir,
    logFile: path.join(work, `${label}.log`),
    waitReady: true,
    env: {
      // npm start starts its own Auth emulator, as for a user; on ports of its own, accounts kept here.
      FIREBASE_AUTH_EMULATOR_HOST: '',
      AUTH_EMULATOR_PORT: String(EMULATOR_PORT),
      AUTH_EMULATOR_DATA_DIR: path.join(work, 'auth-emulator'),
    },
  });
  return { server, startedAt };
}

function report(folder: string, server: BenchServer): void {
  const ready = server.msToReady ?? NaN;
  figure(`cold start of npm start until ready, ${folder}`, `${fmt(ready / 1000, 1)} s`, {
    target: `<= ${TARGET_MS / 1000} s`,
    met: ready <= TARGET_MS,
  });
  detail('until healthy (/api/healthz)', `${fmt(server.msToHealthy / 1000, 1)} s`);
}

export async function run(only: string[] = []): Promise<void> {
  const wanted = (f: (typeof FIGURES)[number]) => only.length === 0 || only.includes(f);
  if (webBuildStale()) {
    detail('web app built first (not timed: done once after install)', '');
    if (buildWeb() !== 0) throw new Error('the web build failed');
  }
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ct-bench-start-'));
  const dataDir = path.join(work, 'pglite');
  try {
    // The first start ever: an empty data folder.
    const first = await coldStart(dataDir, work, 'first-start');
    let snapshot: LogLine | null = null;
    try {
      // A snapshot may load after the server answers: wait for its end while the log says one is loading.
      const deadline = Date.now() + 180_000;
      const quietUntil = Date.now() + 5000;
      while (!(snapshot = snapshotLine(first.server.log())) && Date.now() < deadline) {
        if (Date.now() > quietUntil && !snapshotStarted(first.server.log())) break;
        await new Promise((r) => setTimeout(r, 250));
      }
    } finally {
      await first.server.stop();
    }
    if (wanted('cold-start')) report('empty data folder', first.server);
    if (wanted('first-start')) {
      if (snapshot) {
        const own = loadMs(snapshot);
        const sinceStart = snapshot.time !== undefined ? snapshot.time - first.startedAt : null;
        figure(
          'first-start snapshot load',
          own !== null
            ? `${fmt(own / 1000, 1)} s`
            : `done ${fmt((sinceStart ?? NaN) / 1000, 1)} s after start`,
        );
        detail('log line', JSON.stringify(snapshot).slice(0, 160));
      } else {
        figure('first-start snapshot load', 'no snapshot loaded');
        detail('(the first start on an empty folder is the figure above)', '');
      }
    }
    if (wanted('cold-start')) {
      const again = await coldStart(dataDir, work, 'second-start');
      await again.server.stop();
      report('existing data folder', again.server);
    }
  } finally {
    if (!process.env.BENCH_KEEP) fs.rmSync(work, { recursive: true, force: true });
  }
}
