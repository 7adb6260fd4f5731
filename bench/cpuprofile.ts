// Summarises V8 CPU profiles (from `BENCH_CPU_PROF=<dir> npm run bench -- ...` or `node --cpu-prof`):
// per profile, the busiest functions by self time and the packages / project files where time goes.
// `--busiest 10` looks only at the 10 s in which the process was busiest (the measured load, not start-up),
// `--last 10` at the last 10 s before it stopped (`--skip 20`: the last 10 s before the last 20 s).
// On this host V8's sampler lands in the socket write far more often than the write costs (81 % of a
// healthz load in `writeUtf8String`, where `perf` and `strace` show one write a request, as bare Fastify's):
// read a profile beside `perf record` before acting on it (docs/performance.md, 2026-11-28).
// Usage: npx tsx bench/cpuprofile.ts <dir or .cpuprofile>... [--top 25] [--busiest <s> | --last <s> [--skip <s>]]
import fs from 'node:fs';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const args = process.argv.slice(2);
const option = (name: string) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? Number(args[at + 1]) : undefined;
};
const top = option('top') ?? 25;
const busiest = option('busiest');
const last = option('last');
const skip = option('skip') ?? 0;
const inputs = args.filter((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'));
const files = inputs.flatMap((p) =>
  fs.statSync(p).isDirectory()
    ? fs
        .readdirSync(p)
        .filter((f) => f.endsWith('.cpuprofile'))
        .map((f) => path.join(p, f))
    : [p],
);

/** Where a frame's code lives: a package name, a project file, or a V8 / Node category. */
function place(url: string, fn: string): string {
  if (!url) return fn.startsWith('(') ? fn : '(native)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  if (url.startsWith('node:')) return url;
  const m = /\/(gateway|services|packages|scripts|bench)\/.*$/.exec(url);
  return m ? m[0].slice(1) : url;
}

for (const file of files) {
  const p = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const isIdle = (id: number) => byId.get(id)!.callFrame.functionName === '(idle)';
  // Sample i covers timeDeltas[i] µs ending at at[i].
  const at: number[] = [];
  let t = p.startTime;
  for (const d of p.timeDeltas) at.push((t += d));
  let [from, to] = [p.startTime, p.endTime];
  if (last) [from, to] = [p.endTime - (last + skip) * 1e6, p.endTime - skip * 1e6];
  if (busiest) {
    const span = busiest * 1e6;
    let best = -1;
    let busy = 0;
    let lo = 0;
    for (let hi = 0; hi < at.length; hi++) {
      if (!isIdle(p.samples[hi]!)) busy += p.timeDeltas[hi]!;
      while (at[hi]! - at[lo]! > span) {
        if (!isIdle(p.samples[lo]!)) busy -= p.timeDeltas[lo]!;
        lo++;
      }
      if (busy > best) [best, from, to] = [busy, at[lo]!, at[hi]!];
    }
  }
  const self = new Map<number, number>();
  for (let i = 0; i < p.samples.length; i++) {
    if (at[i]! < from || at[i]! > to) continue;
    const id = p.samples[i]!;
    self.set(id, (self.get(id) ?? 0) + (p.timeDeltas[i] ?? 0));
  }
  const total = (to - from) / 1000;
  const idle = [...self].filter(([id]) => isIdle(id));
  const idleMs = idle.reduce((n, [, t]) => n + t, 0) / 1000;
  console.log(
    `\n${path.basename(file)}: ${(total / 1000).toFixed(1)} s, busy ${(((total - idleMs) / total) * 100).toFixed(0)} %`,
  );
  const fns = new Map<string, number>();
  const places = new Map<string, number>();
  for (const [id, t] of self) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    if (functionName === '(idle)') continue;
    const where = place(url, functionName);
    const key = `${functionName || '(anonymous)'}  ${where}:${lineNumber + 1}`;
    fns.set(key, (fns.get(key) ?? 0) + t);
    places.set(where, (places.get(where) ?? 0) + t);
  }
  const busy = total - idleMs;
  const print = (m: Map<string, number>, n: number) => {
    for (const [k, t] of [...m].sort((a, b) => b[1] - a[1]).slice(0, n))
      console.log(`  ${((t / 1000 / busy) * 100).toFixed(1).padStart(5)} %  ${k}`);
  };
  console.log(' by place (self time, share of busy time):');
  print(places, 15);
  console.log(' by function:');
  print(fns, top);
}
