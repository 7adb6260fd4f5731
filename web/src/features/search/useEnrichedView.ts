import { api } from '../../api/client';
import { usePoll } from '../../hooks/usePoll';
import { fetchCollegeView, type CollegeView } from './api';

/** How often a card whose facts are being gathered asks how it goes. */
export const ENRICHMENT_POLL_MS = 2000;
/** After this long the card stops asking (the line stays; searching again shows the news). */
const GIVE_UP_AFTER_MS = 10 * 60_000;

/** Said once the facts from the college's own pages have arrived. */
export const ENRICHMENT_DONE =
  "Deadlines, essay prompts and requirements from the college's own pages were added.";

/**
 * A found college whose facts from its own pages are being gathered: asks for the request's status in
 * the background and, once it is finished, fetches the college again, so the card fills in by itself.
 * The page is never blocked; a failed poll (a network blip) is simply tried again.
 */
export function useEnrichedView(initial: CollegeView): CollegeView {
  const name = initial.college.name;
  const poll = usePoll<{ fresh: CollegeView | null } | null>({
    queryKey: ['enrichment', initial],
    enabled: initial.enrichment.state === 'gathering',
    initialData: null,
    queryFn: async (signal) => {
      const { state } = (await api.getIngestionStatus({ name }, { signal })).data;
      return state === 'done' || state === 'failed' ? { fresh: await fetchCollegeView(name, signal) } : null;
    },
    done: (d) => d !== null,
    intervalMs: ENRICHMENT_POLL_MS,
    giveUpAfterMs: GIVE_UP_AFTER_MS,
    retry: () => true,
  });
  const fresh = poll.data?.fresh;
  if (!fresh) return initial;
  return fresh.enrichment.state === 'done'
    ? { ...fresh, enrichment: { state: 'done', message: ENRICHMENT_DONE } }
    : fresh;
}
