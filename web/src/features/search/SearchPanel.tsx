import { useEffect, useRef, useState, type FormEvent, type Ref } from 'react';
import { useSearchParams } from 'react-router';
import { LoadingOverlay } from '../../components/LoadingOverlay';
import { SuggestInput } from '../../components/SuggestInput';
import { AddToProfileButton, CollegeCard, EnrichmentLine } from '../colleges';
import { fetchCollegeSuggestions, type CollegeView } from './api';
import { useCollegeSearch } from './useCollegeSearch';
import { STAGE_TEXT } from './stages';
import { useEnrichedView } from './useEnrichedView';
import { StatusBanner } from '../../components/StatusBanner';

/** Full official names as the government data spells them; short names and nicknames may not be found. */
export const OFFICIAL_NAME_EXAMPLES = [
  { official: 'Massachusetts Institute of Technology', not: 'MIT' },
  { official: 'University of California-Los Angeles', not: 'UCLA' },
  { official: 'University of Michigan-Ann Arbor', not: 'UMich' },
  { official: 'Georgia Institute of Technology-Main Campus', not: 'Georgia Tech' },
  { official: 'The University of Texas at Austin', not: 'UT Austin' },
  { official: 'University of North Carolina at Chapel Hill', not: 'UNC' },
  { official: 'University of Illinois Urbana-Champaign', not: 'UIUC' },
];

/**
 * Search Colleges: find a cached college, or have it gathered (behind the loading overlay) and shown. The
 * search lives in the URL (`/search?q=...`): a link or a reload shows the same college, and back and
 * forward go through earlier searches.
 */
export function SearchPanel() {
  const [params, setParams] = useSearchParams();
  const q = params.get('q')?.trim() ?? '';
  const [name, setName] = useState(q);
  const { phase, search, clear } = useCollegeSearch();
  const heading = useRef<HTMLHeadingElement>(null);
  const closeHeading = useRef<HTMLHeadingElement>(null);
  const busy = phase.kind === 'searching' || phase.kind === 'gathering';

  const found = phase.kind === 'found' ? phase.view : null;
  // A new result takes focus so keyboard and screen-reader users land on it.
  useEffect(() => {
    if (found) heading.current?.focus();
  }, [found]);
  const closeNames = phase.kind === 'close' ? phase : null;
  useEffect(() => {
    if (closeNames) closeHeading.current?.focus();
  }, [closeNames]);

  // The URL drives the search: a new ?q= (typed, linked, or back/forward) searches for it.
  useEffect(() => {
    if (q) {
      setName(q);
      search(q);
    } else {
      clear();
    }
  }, [q, search, clear]);

  /** Opens a college by name: through the URL, so back and forward and a reload keep it. */
  const openCollege = (raw: string) => {
    const typed = raw.trim();
    if (!typed) return;
    setName(typed);
    if (typed === q) search(typed);
    else
      setParams((p) => {
        const next = new URLSearchParams(p);
        next.set('q', typed);
        return next;
      });
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    openCollege(name);
  };

  return (
    <div className="search-panel">
      <form className="search-form" onSubmit={submit} role="search" aria-label="Search colleges">
        <SuggestInput
          id="college-search"
          label="College name"
          value={name}
          onChange={setName}
          // A suggestion picked by click, or by the arrow keys and Enter, opens that college at once.
          onSelect={openCollege}
          fetchSuggestions={fetchCollegeSuggestions}
          placeholder="Full official name, e.g. Massachusetts Institute of Technology"
          disabled={busy}
        />
        <button type="submit" disabled={busy || !name.trim()}>
          Search/Add College
        </button>
      </form>

      <div className="search-notes">
        <div className="banner warning">
          <p>
            <strong>Check before you rely on it.</strong> College data is gathered automatically from
            government records (College Scorecard) and college websites by AI web tools. It can be incomplete,
            out of date or wrong: confirm deadlines, requirements and costs on the college&apos;s official
            website. Every fact links to where it came from and when.
          </p>
          <p>A college searched for the first time is gathered on the spot, which can take a while.</p>
        </div>
        <p className="banner info">
          Autocomplete lists only colleges already cached. If yours is not listed, type its full official name
          and press Search/Add College to have it added.
        </p>
        <details className="name-examples">
          <summary>Examples of correct full official names</summary>
          <ul>
            {OFFICIAL_NAME_EXAMPLES.map((ex) => (
              <li key={ex.official}>
                <strong>{ex.official}</strong> <span className="muted">(not &ldquo;{ex.not}&rdquo;)</span>
              </li>
            ))}
          </ul>
        </details>
      </div>

      {phase.kind === 'searching' ? (
        <p role="status" className="muted">
          Searching...
        </p>
      ) : null}
      {phase.kind === 'error' ? (
        <StatusBanner kind="error" as="div">
          {phase.message}
        </StatusBanner>
      ) : null}
      {closeNames ? (
        <section className="card did-you-mean" aria-labelledby="did-you-mean-title">
          <h2 id="did-you-mean-title" ref={closeHeading} tabIndex={-1}>
            Did you mean {closeNames.names[0]}?
          </h2>
          <p>
            We have no college called &ldquo;{closeNames.name}&rdquo;. These official names are close to it:
          </p>
          <ul className="did-you-mean-list">
            {closeNames.names.map((n) => (
              <li key={n}>
                <button type="button" className="secondary" onClick={() => openCollege(n)}>
                  {n}
                </button>
              </li>
            ))}
          </ul>
          <p className="muted">
            None of these? Only then is &ldquo;{closeNames.name}&rdquo; looked up as a new college, which can
            take a while.
          </p>
          <button type="button" onClick={() => search(closeNames.name, { asNew: true })}>
            None of these: add &ldquo;{closeNames.name}&rdquo;
          </button>
        </section>
      ) : null}
      {found ? <FoundCollege key={found.college.name} view={found} headingRef={heading} /> : null}
      {phase.kind === 'gathering' ? <LoadingOverlay detail={STAGE_TEXT[phase.stage]} /> : null}
    </div>
  );
}

/**
 * The card of a found college. Its official figures show at once; facts from the college's own pages
 * that are still being gathered fill in by themselves, with one status line saying so meanwhile.
 */
function FoundCollege({
  view: initial,
  headingRef,
}: {
  view: CollegeView;
  headingRef: Ref<HTMLHeadingElement>;
}) {
  const view = useEnrichedView(initial);
  return (
    <CollegeCard
      college={view.college}
      headingRef={headingRef}
      privateToYou={!view.shared}
      unverified={view.unverified}
      status={<EnrichmentLine enrichment={view.enrichment} />}
      actions={<AddToProfileButton collegeName={view.college.name} />}
    />
  );
}
