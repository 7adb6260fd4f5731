import { normaliseCollegeName } from '@ct/contracts/constants';
import { MSG } from '@ct/contracts/messages';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api/client';
import { useDrafts, useMyPrompts } from '../features/essays/drafts';
import { EssayWorkspace } from '../features/essays/EssayWorkspace';
import { PromptGroups } from '../features/essays/PromptGroups';
import { PromptList } from '../features/essays/PromptList';
import '../features/essays/essays.css';
import { usePageMeta } from '../hooks/usePageMeta';
import { StatusBanner } from '../components/StatusBanner';

/** Other colleges shown at most while a filter is typed. */
const MAX_OTHERS = 30;
/** Spec section 9: the essay page's college grid. */
const GRID_COLUMNS = 3;

/**
 * The colleges to choose from: the student's own colleges that have prompts first, then the application
 * platforms (Common App, UC); other colleges only when the filter finds them, never the whole cache.
 */
function chooserList(
  all: readonly string[],
  applications: readonly string[],
  mine: readonly string[],
  filter: string,
): { shown: string[]; more: number } {
  const f = normaliseCollegeName(filter);
  const match = (name: string) => !f || normaliseCollegeName(name).includes(f);
  const mineKeys = new Set(mine.map(normaliseCollegeName));
  const first = [...mine, ...applications.filter((a) => !mineKeys.has(normaliseCollegeName(a)))].filter(
    match,
  );
  if (!f) return { shown: first, more: 0 };
  const taken = new Set(first.map(normaliseCollegeName));
  const others = all.filter(
    (n) => !taken.has(normaliseCollegeName(n)) && !mineKeys.has(normaliseCollegeName(n)) && match(n),
  );
  return { shown: [...first, ...others.slice(0, MAX_OTHERS)], more: Math.max(0, others.length - MAX_OTHERS) };
}

/**
 * Essays: the student's drafts (one per prompt of their colleges), then a grid of colleges — their own
 * first, with a filter — the chosen college's prompts, and the chosen prompt's example essays.
 */
export default function EssaysPage() {
  usePageMeta(
    'Essay prompts and drafts',
    'Write a draft for each essay prompt of your colleges, with word limits and versions; browse prompts by college and read clearly labelled example essays.',
  );
  const [college, setCollege] = useState<string | null>(null);
  const [openPrompt, setOpenPrompt] = useState<string | null>(null);
  const [filter, setFilter] = useState('');
  const colleges = useQuery({
    queryKey: ['essay-colleges'],
    queryFn: ({ signal }) => api.getCollegesEssays({ signal }),
    retry: false,
  });
  const mine = useMyPrompts();
  // What follows the workspace is drawn once the workspace has its drafts: drawn earlier, it would be
  // pushed down the page when they arrive (a layout shift of 0.13 on a phone).
  const drafts = useDrafts();
  const workspaceReady = !mine.isPending && !drafts.isPending;

  const chooseCollege = (name: string) => {
    // Choosing a college clears the prompts and essays shown for the previous one.
    setOpenPrompt(null);
    setCollege(name);
  };
  const togglePrompt = (prompt: string) => setOpenPrompt((open) => (open === prompt ? null : prompt));

  let grid;
  if (colleges.isPending) {
    grid = (
      <p className="muted" role="status">
        Loading colleges...
      </p>
    );
  } else if (colleges.isError) {
    grid = <StatusBanner kind="error">{MSG.failedToLoadCollegeNames}</StatusBanner>;
  } else if (!colleges.data.colleges.length) {
    // No college has prompts yet. A student with colleges on their list is not told "No colleges
    // available" beside that list: their colleges and what the data says are in the workspace above.
    const hasOwn = (mine.data ?? []).length > 0;
    grid = (
      <div role="status">
        <p className="muted">{hasOwn ? 'No college has essay prompts here yet.' : MSG.noCollegesAvailable}</p>
        <p className="muted">
          Essay prompts appear here once they are gathered from colleges&apos; own pages or added by the
          people who run this site. None are made up.
          {hasOwn ? ' Meanwhile, paste a prompt above to start a draft for it.' : null}
        </p>
      </div>
    );
  } else {
    const own = (mine.data ?? []).filter((c) => c.prompts.length).map((c) => c.collegeName);
    const ownKeys = new Set(own.map(normaliseCollegeName));
    const { shown, more } = chooserList(
      colleges.data.colleges,
      colleges.data.applications ?? [],
      own,
      filter,
    );
    grid = (
      <>
        {shown.length ? (
          <ul
            className="essay-college-grid"
            aria-label="Colleges with essay prompts"
            style={{ gridTemplateColumns: `repeat(${GRID_COLUMNS}, minmax(0, 1fr))` }}
          >
            {shown.map((name) => (
              <li key={name}>
                <button
                  type="button"
                  className={name === college ? 'essay-college selected' : 'essay-college secondary'}
                  aria-pressed={name === college}
                  onClick={() => chooseCollege(name)}
                >
                  {name}
                  {ownKeys.has(normaliseCollegeName(name)) ? (
                    <span className="essay-college-tag">Your college</span>
                  ) : null}
                </button>
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted" role="status">
            No college matches “{filter.trim()}”.
          </p>
        )}
        <p className="muted essay-filter-hint" role="status">
          {filter.trim()
            ? more
              ? `${more} more colleges match: type more of the name.`
              : null
            : 'Your colleges come first. Type in the filter to find any other college with prompts.'}
        </p>
      </>
    );
  }

  return (
    <section className="page essays-page">
      <h1>Essays</h1>
      <p className="muted">
        Write your drafts here, one per prompt of your colleges. Below, pick a college to see its essay
        prompts, then open a prompt to read example essays. Every example is clearly labelled: they are
        written to show structure and voice, and none is a real applicant&apos;s essay.
      </p>
      <EssayWorkspace />
      {workspaceReady ? (
        <>
          <section aria-labelledby="essay-colleges-title" className="essay-chooser">
            <h2 id="essay-colleges-title">Colleges</h2>
            <div className="field essay-filter">
              <label htmlFor="essay-college-filter">Filter colleges</label>
              <input
                id="essay-college-filter"
                type="search"
                value={filter}
                placeholder="Type a college name"
                onChange={(e) => setFilter(e.target.value)}
              />
            </div>
            {grid}
          </section>
          {college ? (
            <section aria-labelledby="essay-prompts-title" className="essay-prompts-section">
              <h2 id="essay-prompts-title">Prompts for {college}</h2>
              <PromptList
                key={college}
                collegeName={college}
                openPrompt={openPrompt}
                onToggle={togglePrompt}
              />
            </section>
          ) : null}
          <PromptGroups />
        </>
      ) : null}
    </section>
  );
}
