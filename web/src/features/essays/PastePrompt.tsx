import { essayPromptKey, parseWordLimit } from '@ct/contracts/planning';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { errorMessage } from '../../api/client';
import { useUid, userDataKeys } from '../../api/keys';
import type { EssayDraft } from '@ct/contracts';
import { saveDraft } from './drafts';
import { StatusBanner } from '../../components/StatusBanner';

/** The limits a word limit may have (the same bounds the prompt parser accepts). */
const MIN_LIMIT = 25;
const MAX_LIMIT = 5000;
const MIN_PROMPT = 10;

/**
 * Start a draft for any prompt: the student pastes its text (from the Common App, UC or a college's own
 * application) and, when the text does not say it, its word limit. The draft then lives with the others:
 * autosaved, counted against the limit, with versions. Nothing is sent until the prompt is valid.
 */
export function PastePrompt({ onStarted }: { onStarted(promptKey: string): void }) {
  const uid = useUid();
  const qc = useQueryClient();
  const ids = { prompt: useId(), limit: useId(), hint: useId() };
  const [prompt, setPrompt] = useState('');
  const [limit, setLimit] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const text = prompt.trim().replace(/\s+\n/g, '\n');
    if (text.length < MIN_PROMPT) {
      setError('Paste the whole prompt: at least a sentence.');
      return;
    }
    const stated = parseWordLimit(text);
    const typed = limit.trim() ? Number(limit) : null;
    if (typed !== null && (!Number.isInteger(typed) || typed < MIN_LIMIT || typed > MAX_LIMIT)) {
      setError(`A word limit is a whole number from ${MIN_LIMIT} to ${MAX_LIMIT}.`);
      return;
    }
    // The limit goes with the prompt's text, as colleges write it; the draft's key ignores it.
    const full = typed !== null && stated !== typed ? `${text} (${typed} words)` : text;
    const key = essayPromptKey(full);
    setError(null);
    // A prompt that already has a draft (pasted before, or one of a college's): open that one.
    if (qc.getQueryData<EssayDraft[]>(userDataKeys.drafts(uid))?.some((d) => d.promptKey === key)) {
      setPrompt('');
      setLimit('');
      onStarted(key);
      return;
    }
    setBusy(true);
    try {
      await saveDraft(qc, uid, { prompt: full, body: '', baseRevision: 0 });
      setPrompt('');
      setLimit('');
      onStarted(key);
    } catch (err) {
      setError(`Could not start the draft: ${errorMessage(err)}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    // noValidate: the product's own messages, not the browser's bubbles, say what is wrong.
    <form
      className="card paste-prompt"
      onSubmit={(e) => void submit(e)}
      aria-labelledby={ids.hint}
      noValidate
    >
      <h3 id={ids.hint}>Write for another prompt</h3>
      <p className="muted">
        Paste a prompt from an application (the Common App, UC, or a college&apos;s own) to start a draft for
        it.
      </p>
      <div className="field">
        <label htmlFor={ids.prompt}>Prompt</label>
        <textarea
          id={ids.prompt}
          rows={3}
          value={prompt}
          maxLength={4000}
          onChange={(e) => setPrompt(e.target.value)}
        />
      </div>
      <div className="field paste-prompt-limit">
        <label htmlFor={ids.limit}>Word limit (optional)</label>
        <input
          id={ids.limit}
          type="number"
          inputMode="numeric"
          min={MIN_LIMIT}
          max={MAX_LIMIT}
          step={1}
          value={limit}
          onChange={(e) => setLimit(e.target.value)}
        />
      </div>
      {error ? <StatusBanner kind="error">{error}</StatusBanner> : null}
      <button type="submit" disabled={busy}>
        {busy ? 'Starting...' : 'Start draft'}
      </button>
    </form>
  );
}
