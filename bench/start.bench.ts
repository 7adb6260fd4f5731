// Cold start of `npm start`, as a user runs it after `npm install` (the web app already built): from the
// command until the app is ready to use, i.e. GET /api/readyz answers 200 (store, queue and npm start's own
// Auth emulator reachable; /api/healthz, the process alone, is shown too). Twice: on an empty data
// folder (the first start ever, which creates the database and loads what a first start loads) and on the
// data folder that first start left behind.
//
// First-start snapshot load: the first start loads the shipped College Scorecard snapshot in the
// background and logs one line when done; the figure is read from that line (see `snapshotLine`). Without
// a shipped snapshot file the figure says there is none.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildWeb, webBuildStale } from '../scripts/lib/stack.ts';
import { SNAPSHOT_FILE } from '../services/colleges/src/snapshot-file.ts';
import { detail, failedFigure, figure, fmt } from './lib.ts';
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
      // The snapshot loads after the server answers: wait for the line that says it is done.
      const deadline = Date.now() + 180_000;
      while (fs.existsSync(SNAPSHOT_FILE) && !(snapshot = snapshotLine(first.server.log()))) {
        if (Date.now() > deadline) break;
        await new Promise((r) => setTimeout(r, 250));
      }
    } finally {
      await first.server.stop();
    }
    if (wanted('cold-start')) report('empty data folder', first.server);
    if (wanted('first-start')) {
      if (snapshot) {
        const own = loadMs(snapshot);
        const after = snapshot.time !== undefined ? (snapshot.time - first.startedAt) / 1000 : NaN;
        figure(
          'first-start snapshot load (in the background, PGlite)',
          own !== null ? `${fmt(own / 1000, 1)} s` : 'done',
        );
        detail('done after npm start was run', `${fmt(after, 1)} s`);
        detail('colleges loaded', typeof snapshot.colleges === 'number' ? fmt(snapshot.colleges) : 'n/a');
      } else if (fs.existsSync(SNAPSHOT_FILE)) {
        failedFigure('first-start snapshot load', new Error('no "College data loaded" line within 180 s'));
      } else {
        figure('first-start snapshot load', 'no snapshot shipped');
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
