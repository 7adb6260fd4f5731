// The JavaScript a first visit downloads before the app runs, gzipped, from the production build: the
// same analysis as `npm run pagespeed` and tests/hardening/bundle-budget.test.ts (scripts/pagespeed.ts).
import { analyseBundle, INITIAL_JS_BUDGET } from '../scripts/pagespeed.ts';
import { buildWeb, webBuildStale } from '../scripts/lib/stack.ts';
import { detail, figure, fmt } from './lib.ts';

export const FIGURES = ['web-js'] as const;

export async function run(): Promise<void> {
  if (webBuildStale() && buildWeb() !== 0) throw new Error('the web build failed');
  const r = analyseBundle();
  figure('web initial JavaScript (gzip)', `${fmt(r.initialGzip / 1024, 1)} KB`, {
    target: `<= ${fmt(INITIAL_JS_BUDGET / 1024)} KB`,
    met: r.initial.length > 0 && r.initialGzip <= INITIAL_JS_BUDGET,
  });
  for (const f of r.initial) detail(f.file, `${fmt(f.gzip / 1024, 1)} KB`);
}
