import { GATEWAY_MSG } from '../../messages.ts';
import type { JobInfo, QueueCounts } from '@ct/queue';

const esc = (s: unknown) =>
  String(s).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

const STYLE = `body{font:15px/1.5 system-ui,sans-serif;margin:2rem;color:#1b1f24;background:#fff}
table{border-collapse:collapse;margin:1rem 0}th,td{border:1px solid #c9ced6;padding:.35rem .7rem;text-align:left}
th{background:#f1f3f6}td.n{text-align:right;font-variant-numeric:tabular-nums}.muted{color:#57606a}
code{font-size:.9em}`;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>${esc(title)}</title>
<style>${STYLE}</style></head><body>${body}</body></html>`;
}

/** Shown to a browser that opens the dashboard without an admin session. */
export function signInPage(status: number, productName: string): string {
  const why = status === 403 ? GATEWAY_MSG.opsNotAdmin : GATEWAY_MSG.opsSignInFirst;
  return page(
    `${productName} queues`,
    `<main><h1>Queue dashboard</h1><p role="alert">${esc(why)}</p><p><a href="/admin">Go to the Admin page</a></p></main>`,
  );
}

export interface QueuesPageData {
  productName: string;
  kind: 'bullmq' | 'memory' | 'none';
  queues: Array<{ name: string; counts: QueueCounts }>;
  recent: Array<{ name: string; jobs: JobInfo[] }>;
}

/**
 * The dashboard when there is no Redis to show in bull-board: the embedded run's in-process queue,
 * read-only, with counts per state and each queue's latest jobs.
 */
export function renderQueuesPage(d: QueuesPageData): string {
  const intro =
    d.kind === 'memory'
      ? '<p>This is the embedded run: jobs live in an in-process queue inside this process (they are gone when it stops, and the requests in the database enqueue them again at start). Run with <code>REDIS_URL</code> set for the full dashboard.</p>'
      : '<p role="alert">No queue is configured for this process (set <code>REDIS_URL</code>).</p>';
  const cols = ['waiting', 'active', 'delayed', 'failed', 'completed'] as const;
  const counts = d.queues.length
    ? `<table><caption>Jobs per state</caption><thead><tr><th scope="col">Queue</th>${cols.map((c) => `<th scope="col">${c}</th>`).join('')}</tr></thead><tbody>${d.queues
        .map(
          (q) =>
            `<tr><th scope="row">${esc(q.name)}</th>${cols.map((c) => `<td class="n">${q.counts[c]}</td>`).join('')}</tr>`,
        )
        .join('')}</tbody></table>`
    : '';
  const recent = d.recent
    .filter((r) => r.jobs.length)
    .map(
      (r) =>
        `<h2>${esc(r.name)}: latest jobs</h2><table><thead><tr><th scope="col">Job</th><th scope="col">Name</th><th scope="col">State</th><th scope="col">Tries</th><th scope="col">Failure</th></tr></thead><tbody>${r.jobs
          .map(
            (j) =>
              `<tr><td><code>${esc(j.id)}</code></td><td>${esc(j.name)}</td><td>${esc(j.state)}</td><td class="n">${j.attemptsMade}</td><td>${esc(j.failedReason ?? '')}</td></tr>`,
          )
          .join('')}</tbody></table>`,
    )
    .join('');
  return page(
    `${d.productName} queues`,
    `<main><h1>Queue dashboard</h1>${intro}${counts}${recent}<p class="muted">Read-only. Retry failed ingestion requests from the admin page.</p></main>`,
  );
}
