// What the worker's KEDA trigger reads (k8s/base/ingestion-worker/keda.yaml): its Prometheus query, the
// queues and states it selects, and the figure it computes from the metrics a worker exports.
import fs from 'node:fs';
import { parse } from 'yaml';
import { rel } from './sources.ts';

/** The query of the worker's ScaledObject trigger, as written in the base manifest. */
export function kedaQuery(): string {
  const docs = fs
    .readFileSync(rel('k8s/base/ingestion-worker/keda.yaml'), 'utf8')
    .split(/^---$/m)
    .map((d) => parse(d) as { kind?: string; spec?: { triggers?: Array<{ metadata: { query?: string } }> } });
  const so = docs.find((d) => d?.kind === 'ScaledObject')!;
  return so.spec!.triggers![0]!.metadata.query!;
}

/** The alternatives of a `label=~"a|b"` matcher of the query, unescaped. */
function alternatives(query: string, label: string): string[] {
  const m = new RegExp(`${label}=~"([^"]+)"`).exec(query);
  if (!m) throw new Error(`the query selects no ${label}: ${query}`);
  return m[1]!.split('|').map((a) => a.replace(/\\\\/g, '\\').replace(/\\\./g, '.'));
}

/** The queues and states the trigger's query selects. */
export function scalerSelection(query: string): { queues: string[]; states: string[] } {
  return { queues: alternatives(query, 'queue'), states: alternatives(query, 'state') };
}

/**
 * The figure KEDA compares with the threshold, computed as Prometheus would from one scrape:
 * `sum(max by (queue, state) (college_ready_queue_jobs{queue=~…, state=~…}))`.
 */
export function scalerInput(metricsText: string, query: string): number {
  const { queues, states } = scalerSelection(query);
  const max = new Map<string, number>();
  for (const line of metricsText.split('\n')) {
    const m = /^college_ready_queue_jobs\{([^}]*)\} (\S+)$/.exec(line);
    if (!m) continue;
    const labels = Object.fromEntries([...m[1]!.matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    if (!queues.includes(labels.queue!) || !states.includes(labels.state!)) continue;
    const key = `${labels.queue}|${labels.state}`;
    max.set(key, Math.max(max.get(key) ?? 0, Number(m[2])));
  }
  return [...max.values()].reduce((a, b) => a + b, 0);
}
