import { useRef, type KeyboardEvent } from 'react';
import { useSearchParams } from 'react-router';
import { ComparePanel } from '../features/search/ComparePanel';
import { SearchPanel } from '../features/search/SearchPanel';
import { usePageMeta } from '../hooks/usePageMeta';
import '../features/search/search.css';

const MODES = [
  { id: 'search', label: 'Search Colleges' },
  { id: 'compare', label: 'Compare Colleges' },
] as const;
type Mode = (typeof MODES)[number]['id'];

/**
 * /search: a toggle between Search Colleges and Compare Colleges. Both panels keep their state when hidden;
 * the mode is in the URL (`?mode=compare`), like the compare set, so a link opens the same view.
 */
export default function SearchPage() {
  usePageMeta(
    'Search and Compare Colleges',
    'Search for a college and add it to your list, or compare up to four colleges side by side: admissions, costs, net price, earnings and graduation rate.',
  );
  const [params, setParams] = useSearchParams();
  const mode: Mode = params.get('mode') === 'compare' ? 'compare' : 'search';
  const setMode = (next: Mode) =>
    setParams(
      (p) => {
        const q = new URLSearchParams(p);
        if (next === 'compare') q.set('mode', 'compare');
        else q.delete('mode');
        return q;
      },
      { replace: true },
    );
  const tabs = useRef<Record<Mode, HTMLButtonElement | null>>({ search: null, compare: null });

  // Tabs pattern: arrow keys move between the two tabs and select them.
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (!['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(e.key)) return;
    e.preventDefault();
    const next: Mode =
      e.key === 'Home' ? 'search' : e.key === 'End' ? 'compare' : mode === 'search' ? 'compare' : 'search';
    setMode(next);
    tabs.current[next]?.focus();
  };

  return (
    <section className="page search-page">
      <h1>Search and Compare Colleges</h1>
      <div className="mode-toggle" role="tablist" aria-label="Search or compare" onKeyDown={onKeyDown}>
        {MODES.map((m) => (
          <button
            key={m.id}
            ref={(el) => {
              tabs.current[m.id] = el;
            }}
            type="button"
            role="tab"
            id={`tab-${m.id}`}
            aria-selected={mode === m.id}
            aria-controls={`panel-${m.id}`}
            tabIndex={mode === m.id ? 0 : -1}
            className={mode === m.id ? 'selected' : 'secondary'}
            onClick={() => setMode(m.id)}
          >
            {m.label}
          </button>
        ))}
      </div>
      {MODES.map((m) => (
        <div
          key={m.id}
          role="tabpanel"
          id={`panel-${m.id}`}
          aria-labelledby={`tab-${m.id}`}
          hidden={mode !== m.id}
        >
          {m.id === 'search' ? <SearchPanel /> : <ComparePanel />}
        </div>
      ))}
    </section>
  );
}
