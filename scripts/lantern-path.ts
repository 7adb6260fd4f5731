// `npx tsx scripts/lantern-path.ts <dir> <name>`: the path Lighthouse's simulation (Lantern) takes to a
// page's LCP, from a run `npm run pagespeed -- --save <dir>` kept (`<name>` is e.g. `usercolleges-mobile`).
// Prints the simulated LCP (pessimistic and optimistic graphs) and, for the pessimistic one, every request
// and every main-thread task with its simulated start and end, then the chain of the node that ends last:
// what a change must shorten to move the figure. Last, the simulated Total Blocking Time and the tasks of
// over 50 ms (simulated) that make it.
import fs from 'node:fs';
import path from 'node:path';

interface SimNode {
  id: string;
  type: 'network' | 'cpu';
  request?: { url: string; transferSize: number; priority: string };
  event?: { dur?: number };
  childEvents?: Array<{ name: string; args?: { data?: { url?: string } } }>;
  getDependencies(): SimNode[];
}
type Timing = { startTime: number; endTime: number };

async function main(): Promise<void> {
  const [dir, name] = process.argv.slice(2);
  if (!dir || !name) throw new Error('usage: tsx scripts/lantern-path.ts <dir> <name>');
  const read = (suffix: string) => JSON.parse(fs.readFileSync(path.join(dir, `${name}${suffix}`), 'utf8'));
  const lhr = read('.json');
  const { LanternLargestContentfulPaint } =
    await import('lighthouse/core/computed/metrics/lantern-largest-contentful-paint.js');
  const { LanternTotalBlockingTime } =
    await import('lighthouse/core/computed/metrics/lantern-total-blocking-time.js');
  const data = {
    trace: read('.trace.json'),
    devtoolsLog: read('.devtoolslog.json'),
    gatherContext: { gatherMode: 'navigation' as const },
    settings: lhr.configSettings,
    simulator: null,
    URL: {
      requestedUrl: lhr.requestedUrl,
      mainDocumentUrl: lhr.mainDocumentUrl,
      finalDisplayedUrl: lhr.finalDisplayedUrl,
    },
    SourceMaps: [],
  };
  const context = { computedCache: new Map() };
  const result = await LanternLargestContentfulPaint.request(data, context);
  console.log(
    `LCP: ${result.timing.toFixed(0)} ms (optimistic ${result.optimisticEstimate.timeInMs.toFixed(0)}, pessimistic ${result.pessimisticEstimate.timeInMs.toFixed(0)}); report says ${lhr.audits['largest-contentful-paint'].numericValue.toFixed(0)}`,
  );
  const timings = result.pessimisticEstimate.nodeTimings as Map<SimNode, Timing>;
  const label = (n: SimNode) => {
    if (n.type === 'network')
      return `${n.request!.url.replace(/^https?:\/\/[^/]+/, '')} ${(n.request!.transferSize / 1024).toFixed(1)} KB ${n.request!.priority}`;
    const names = new Set((n.childEvents ?? []).map((e) => e.name));
    const urls = (n.childEvents ?? []).flatMap((e) => (e.args?.data?.url ? [e.args.data.url] : []));
    const what = [
      'EvaluateScript',
      'FunctionCall',
      'TimerFire',
      'ParseHTML',
      'Layout',
      'Paint',
      'EventDispatch',
    ]
      .filter((x) => names.has(x))
      .join(',');
    return `task ${((n.event?.dur ?? 0) / 1000).toFixed(1)} ms [${what}] ${urls[0]?.replace(/^https?:\/\/[^/]+/, '') ?? ''}`;
  };
  const rows = [...timings.entries()].sort((a, b) => a[1].startTime - b[1].startTime);
  for (const [n, t] of rows)
    console.log(`${t.startTime.toFixed(0).padStart(6)} ${t.endTime.toFixed(0).padStart(6)}  ${label(n)}`);
  // The chain to the last node: from it, step each time to the dependency that ended last.
  let node = rows.reduce((a, b) => (b[1].endTime > a[1].endTime ? b : a))[0];
  const chain: SimNode[] = [node];
  for (;;) {
    const deps = node.getDependencies().filter((d) => timings.has(d));
    if (!deps.length) break;
    node = deps.reduce((a, b) => (timings.get(b)!.endTime > timings.get(a)!.endTime ? b : a));
    chain.unshift(node);
  }
  console.log('\ncritical chain (pessimistic graph):');
  for (const n of chain) {
    const t = timings.get(n)!;
    console.log(`${t.startTime.toFixed(0).padStart(6)} ${t.endTime.toFixed(0).padStart(6)}  ${label(n)}`);
  }
  const tbt = await LanternTotalBlockingTime.request(data, context);
  console.log(
    `\nTBT: ${tbt.timing.toFixed(0)} ms (optimistic ${tbt.optimisticEstimate.timeInMs.toFixed(0)}, pessimistic ${tbt.pessimisticEstimate.timeInMs.toFixed(0)}); tasks over 50 ms simulated:`,
  );
  const tasks = [...(tbt.pessimisticEstimate.nodeTimings as Map<SimNode, Timing>).entries()]
    .filter(([n, t]) => n.type === 'cpu' && t.endTime - t.startTime > 50)
    .sort((a, b) => a[1].startTime - b[1].startTime);
  for (const [n, t] of tasks)
    console.log(
      `${t.startTime.toFixed(0).padStart(6)} ${t.endTime.toFixed(0).padStart(6)} blocks ${(t.endTime - t.startTime - 50).toFixed(0).padStart(4)}  ${label(n)}`,
    );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
