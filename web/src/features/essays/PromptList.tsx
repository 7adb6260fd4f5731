import type { PromptDetail } from '@ct/contracts';
import { MSG } from '@ct/contracts/messages';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { ApiError } from '../../api/client';
import { api } from '../../api/client';
import { wordLimitText } from './workspace';
import { Examples } from './Examples';
import { StatusBanner } from '../../components/StatusBanner';

/** The chosen college's prompts; choosing a prompt opens its example essays, choosing it again closes them. */
export function PromptList({
  collegeName,
  openPrompt,
  onToggle,
}: {
  collegeName: string;
  openPrompt: string | null;
  onToggle(prompt: string): void;
}) {
  const baseId = useId();
  const q = useQuery({
    queryKey: ['prompts', collegeName],
    queryFn: ({ signal }) => api.getPrompts({ collegeName }, { signal }),
    retry: false,
  });

  if (q.isPending) {
    return (
      <p className="muted" role="status">
        Loading prompts...
      </p>
    );
  }
  if (q.isError) {
    const notFound = q.error instanceof ApiError && q.error.status === 404;
    return notFound ? (
      <p className="muted" role="status">
        {MSG.noPromptsFound}
      </p>
    ) : (
      <StatusBanner kind="error">{MSG.errorFetchingPrompts}</StatusBanner>
    );
  }
  const details: PromptDetail[] =
    q.data.details ??
    q.data.prompts.map((prompt) => ({
      prompt,
      wordLimit: null,
      wordMin: null,
      category: 'other' as const,
      sourceUrl: null,
      note: null,
    }));
  if (!details.length) {
    return (
      <p className="muted" role="status">
        {MSG.noPromptsFound}
      </p>
    );
  }
  return (
    <ol className="essay-prompts">
      {details.map((d, i) => {
        const open = openPrompt === d.prompt;
        const panelId = `${baseId}-essays-${i}`;
        const limit = wordLimitText(d.wordLimit, d.wordMin);
        return (
          <li key={d.prompt} className={open ? 'essay-prompt open' : 'essay-prompt'}>
            <button
              type="button"
              className="essay-prompt-button"
              aria-expanded={open}
              aria-controls={open ? panelId : undefined}
              onClick={() => onToggle(d.prompt)}
            >
              <span className="essay-prompt-text">{d.prompt}</span>
              <span className="essay-prompt-meta">
                {limit ? <span className="essay-badge">{limit}</span> : null}
                <span className="essay-toggle-hint">
                  {open ? 'Hide example essays' : 'Show example essays'}
                </span>
              </span>
            </button>
            {d.note || d.sourceUrl ? (
              <p className="essay-prompt-note muted">
                {d.note}
                {d.note && d.sourceUrl ? ' ' : null}
                {d.sourceUrl ? (
                  <a href={d.sourceUrl} target="_blank" rel="noopener noreferrer">
                    Source
                  </a>
                ) : null}
              </p>
            ) : null}
            {open ? <Examples collegeName={collegeName} prompt={d.prompt} id={panelId} /> : null}
          </li>
        );
      })}
    </ol>
  );
}
