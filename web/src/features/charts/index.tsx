// The charts, loaded only where one is shown. A college card's finance and breakdown are chunks of their
// own, loaded when a card shows them: a fixed-height placeholder holds their place meanwhile, so nothing
// moves. The checklist progress across the list is in the dashboard's own files (the route's HTML names
// them): its sidebar shows it whenever the list has a college, so waiting for it would only delay the page.
import type { DemographicBreakdown, Finance } from '@ct/contracts';
import { lazy, Suspense } from 'react';

export { default as ListProgressChart } from './ListProgressChart';

const NetPrice = lazy(() => import('./NetPriceChart'));
const Breakdown = lazy(() => import('./BreakdownChart'));

const placeholder = <div className="chart-placeholder" aria-hidden="true" />;

/** Net price by family income, the student's band highlighted. */
export function NetPriceChart({ finance }: { finance: Finance | null | undefined }) {
  return (
    <Suspense fallback={placeholder}>
      <NetPrice finance={finance} />
    </Suspense>
  );
}

/** The demographic breakdown as one bar with its legend, and first-generation students. */
export function BreakdownChart({ breakdown }: { breakdown: DemographicBreakdown | null | undefined }) {
  return (
    <Suspense fallback={placeholder}>
      <Breakdown breakdown={breakdown} />
    </Suspense>
  );
}
