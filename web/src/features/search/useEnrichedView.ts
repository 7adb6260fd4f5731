import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { fetchCollegeView, type CollegeView } from './api';
import { isFinished, useIngestionStatus } from './useIngestionStatus';

/** Said once the facts from the college's own pages have arrived. */
export const ENRICHMENT_DONE =
  "Deadlines, essay prompts and requirements from the college's own pages were added.";

/**
 * A found college whose facts from its own pages are being gathered: watches the request's status (the
 * same poll as the search's overlay, `useIngestionStatus`) and, once it is finished, fetches the college
 * again, so the card fills in by itself. The page is never blocked.
 */
export function useEnrichedView(initial: CollegeView): CollegeView {
  const name = initial.college.name;
  const gathering = initial.enrichment.state === 'gathering';
  // Only an answer that came after this card appeared is news to it (an earlier watch may have left one).
  const [since] = useState(() => Date.now());
  const status = useIngestionStatus(gathering ? name : null, since, { askOnMount: true });
  const finished = !!status.data && status.dataUpdatedAt >= since && isFinished(status.data);
  const fresh = useQuery({
    queryKey: ['enriched-view', name, since],
    enabled: gathering && finished,
    queryFn: ({ signal }) => fetchCollegeView(name, signal),
    retry: 3,
    networkMode: 'always',
  }).data;
  if (!fresh) return initial;
  return fresh.enrichment.state === 'done'
    ? { ...fresh, enrichment: { state: 'done', message: ENRICHMENT_DONE } }
    : fresh;
}
