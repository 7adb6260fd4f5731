// The charts, each its own chunk, loaded only where one is shown (a college card's finance or breakdown,
// the list of colleges): a fixed-height placeholder holds their place meanwhile, so nothing moves.
import type { DemographicBreakdown, Finance, UserCollege } from '@ct/contracts';
import { lazy, Suspense } from 'react';

const NetPrice = lazy(() => import('./NetPriceChart'));
const Breakdown = lazy(() => import('./BreakdownChart'));
const ListProgress = lazy(() => import('./ListProgressChart'));

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

/** Checklist progress across the student's list (dashboard sidebar; an overview of the list can embed it). */
export function ListProgressChart({ colleges }: { colleges: readonly UserCollege[] }) {
  return (
    <Suspense fallback={placeholder}>
      <ListProgress colleges={colleges} />
    </Suspense>
  );
}
