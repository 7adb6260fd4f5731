import { LIMITS, MSG } from '@ct/contracts/messages';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { fetchEssayColleges } from '../features/essays/api';
import { PromptGroups } from '../features/essays/PromptGroups';
import { PromptList } from '../features/essays/PromptList';
import '../features/essays/essays.css';
import { usePageMeta } from '../hooks/usePageMeta';

/** Essay prompts: a grid of colleges, the chosen college's prompts, the chosen prompt's example essays. */
export default function EssaysPage() {
  usePageMeta(
    'Essay prompts',
    'Browse essay prompts by college, with word limits, and read clearly labelled example essays.',
  );
  const [college, setCollege] = useState<string | null>(null);
  const [openPrompt, setOpenPrompt] = useState<string | null>(null);
  const colleges = useQuery({
    queryKey: ['essay-colleges'],
    queryFn: ({ signal }) => fetchEssayColleges(signal),
    retry: false,
  });

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
    grid = (
      <p className="banner error" role="alert">
        {MSG.failedToLoadCollegeNames}
      </p>
    );
  } else if (!colleges.data.colleges.length) {
    grid = (
      <div role="status">
        <p className="muted">{MSG.noCollegesAvailable}</p>
        <p className="muted">
          Essay prompts appear here once they are gathered from colleges&apos; own pages or added by the
          people who run this site. None are made up.
        </p>
      </div>
    );
  } else {
    grid = (
      <ul
        className="essay-college-grid"
        aria-label="Colleges with essay prompts"
        style={{ gridTemplateColumns: `repeat(${LIMITS.essayGridColumns}, minmax(0, 1fr))` }}
      >
        {colleges.data.colleges.map((name) => (
          <li key={name}>
            <button
              type="button"
              className={name === college ? 'essay-college selected' : 'essay-college secondary'}
              aria-pressed={name === college}
              onClick={() => chooseCollege(name)}
            >
              {name}
            </button>
          </li>
        ))}
      </ul>
    );
  }

  return (
    <section className="page essays-page">
      <h1>Essay prompts</h1>
      <p className="muted">
        Pick a college to see its essay prompts, then open a prompt to read example essays. Every example is
        clearly labelled: they are written to show structure and voice, and none is a real applicant&apos;s
        essay.
      </p>
      <section aria-labelledby="essay-colleges-title">
        <h2 id="essay-colleges-title">Colleges</h2>
        {grid}
      </section>
      {college ? (
        <section aria-labelledby="essay-prompts-title" className="essay-prompts-section">
          <h2 id="essay-prompts-title">Prompts for {college}</h2>
          <PromptList key={college} collegeName={college} openPrompt={openPrompt} onToggle={togglePrompt} />
        </section>
      ) : null}
      <PromptGroups />
    </section>
  );
}
