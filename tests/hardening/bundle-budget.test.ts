// The production build's first-visit JavaScript stays within budget and every page is its own lazy chunk.
// `npm test` builds web/dist first; `npm run pagespeed` prints the same figures and runs Lighthouse.
import { describe, expect, it } from 'vitest';
import { analyseBundle, INITIAL_JS_BUDGET } from '../../scripts/pagespeed.ts';

describe('web bundle budget', () => {
  const report = analyseBundle();

  it(`downloads at most ${INITIAL_JS_BUDGET / 1024} KB of gzipped JavaScript before the app runs`, () => {
    const list = report.initial.map((f) => `${f.file} ${(f.gzip / 1024).toFixed(1)} KB`).join(', ');
    expect(report.initial.length, 'no entry script found in index.html').toBeGreaterThan(0);
    expect(report.initialGzip, `initial JS: ${list}`).toBeLessThanOrEqual(INITIAL_JS_BUDGET);
  });

  it('loads every page of the router as its own chunk, only when it is visited', () => {
    expect(report.pages.length).toBeGreaterThanOrEqual(8);
    const eager = report.pages.filter((p) => p.chunk === null || p.initial).map((p) => p.page);
    expect(eager, 'pages bundled into the initial download').toEqual([]);
  });
});
