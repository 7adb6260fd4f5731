import { useEffect, useState } from 'react';
import { api } from '../../api/client';
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
  const [view, setView] = useState(initial);
  const [started] = useState(() => Date.now());
  useEffect(() => setView(initial), [initial]);

  useEffect(() => {
    if (view.enrichment.state !== 'gathering') return;
    const ctrl = new AbortController();
    const name = view.college.name;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async () => {
      try {
        const status = await api.getIngestionStatus({ name }, { signal: ctrl.signal });
        if (status.data.state === 'done' || status.data.state === 'failed') {
          const fresh = await fetchCollegeView(name, ctrl.signal);
          if (fresh) {
            setView(
              fresh.enrichment.state === 'done'
                ? { ...fresh, enrichment: { state: 'done', message: ENRICHMENT_DONE } }
                : fresh,
            );
          }
          return;
        }
      } catch {
        if (ctrl.signal.aborted) return;
      }
      if (Date.now() - started < GIVE_UP_AFTER_MS) timer = setTimeout(() => void tick(), ENRICHMENT_POLL_MS);
    };
    timer = setTimeout(() => void tick(), ENRICHMENT_POLL_MS);
    return () => {
      ctrl.abort();
      clearTimeout(timer);
    };
  }, [view, started]);

  return view;
}
