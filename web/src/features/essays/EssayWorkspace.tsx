import type { EssayDraft } from '@ct/contracts';
import { countWords, otherCollegesNamed, parseWordLimit } from '@ct/contracts/planning';
import { useEffect, useId, useRef, useState } from 'react';
import { errorMessage } from '../../api/client';
import { useDrafts, useMyPrompts, useVersions } from './drafts';
import { PastePrompt } from './PastePrompt';
import { useAutosave, type SaveStatus } from './useAutosave';
import { WritingRequirements } from './WritingRequirements';
import { draftSlots, orphanDrafts, wordCountText, wordLimitText, type DraftSlot } from './workspace';
import { StatusBanner } from '../../components/StatusBanner';

const STATUS_TEXT: Record<Exclude<SaveStatus, 'error' | 'conflict'>, string> = {
  idle: 'Not started',
  dirty: 'Unsaved changes',
  saving: 'Saving...',
  saved: 'Saved',
};

function VersionList({
  draftId,
  onRestore,
  busy,
}: {
  draftId: string | null;
  onRestore(body: string): void;
  busy: boolean;
}) {
  const q = useVersions(draftId, true);
  if (!draftId) return <p className="muted">No versions yet: a version is kept as you write.</p>;
  if (q.isPending)
    return (
      <p className="muted" role="status">
        Loading versions...
      </p>
    );
  if (q.isError) return <StatusBanner kind="error">{errorMessage(q.error)}</StatusBanner>;
  if (!q.data.length) return <p className="muted">No versions yet: a version is kept as you write.</p>;
  return (
    <ol className="version-list" aria-label="Earlier versions">
      {q.data.map((v) => {
        const when = new Date(v.createdAt).toLocaleString('en-US', {
          dateStyle: 'medium',
          timeStyle: 'short',
        });
        return (
          <li key={v.id}>
            <div>
              <strong>{when}</strong> <span className="muted">· {wordCountText(v.wordCount, null)}</span>
              <p className="version-preview">{v.body.slice(0, 160) || '(empty)'}</p>
            </div>
            <button
              type="button"
              className="secondary small"
              disabled={busy}
              onClick={() => onRestore(v.body)}
              aria-label={`Restore the version of ${when}`}
            >
              Restore
            </button>
          </li>
        );
      })}
    </ol>
  );
}

/** The open editor of one draft: autosaved text, live word count, versions, and a wrong-college check. */
function DraftEditor({
  slot,
  draft,
  myColleges,
}: {
  slot: DraftSlot;
  draft: EssayDraft | undefined;
  myColleges: readonly string[];
}) {
  const a = useAutosave(slot.prompt, slot.key, draft);
  const [versionsOpen, setVersionsOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const ids = { text: useId(), count: useId(), versions: useId() };
  const count = countWords(a.text);
  const over = slot.wordLimit !== null && count > slot.wordLimit;
  const named = slot.colleges.length ? otherCollegesNamed(a.text, slot.colleges, myColleges) : [];

  const act = async (what: () => Promise<void>, done: string) => {
    setBusy(true);
    setNote(null);
    try {
      await what();
      setNote(done);
    } catch (err) {
      setNote(`Could not do that: ${errorMessage(err)}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="draft-editor">
      {a.restored ? (
        <StatusBanner kind="info">Restored text from this browser that had not been saved yet.</StatusBanner>
      ) : null}
      {a.staleBackup ? (
        <StatusBanner kind="warning" role="alert" as="div">
          <p>
            This browser has text for this draft that was never saved, written before the draft was changed
            elsewhere.
          </p>
          <button
            type="button"
            className="secondary small"
            onClick={() => void a.keepMine(a.staleBackup!.text)}
          >
            Use this browser&apos;s text
          </button>{' '}
          <button type="button" className="secondary small" onClick={a.discardBackup}>
            Discard it
          </button>
        </StatusBanner>
      ) : null}
      <label htmlFor={ids.text}>Your draft</label>
      <textarea
        id={ids.text}
        className="draft-text"
        rows={12}
        value={a.text}
        onChange={(e) => a.setText(e.target.value)}
        aria-describedby={ids.count}
        spellCheck
      />
      <div className="draft-bar">
        <span id={ids.count} className={over ? 'word-count over' : 'word-count'}>
          {wordCountText(count, slot.wordLimit)}
        </span>
        <span className={`save-status save-${a.status}`} role="status">
          {a.status === 'error'
            ? `Not saved yet: ${a.error ?? 'unknown error'}. Trying again...`
            : a.status === 'conflict'
              ? 'Not saved: changed elsewhere'
              : STATUS_TEXT[a.status]}
        </span>
      </div>
      {named.length ? (
        <StatusBanner kind="warning" className="draft-warning">
          This draft names {named.join(' and ')}, but it is for {slot.colleges.join(' and ')}. Check the
          college names before you submit it.
        </StatusBanner>
      ) : null}
      {a.status === 'conflict' ? (
        <StatusBanner kind="warning" role="alert" as="div">
          <p>{a.error}</p>
          <button type="button" className="secondary small" onClick={() => void a.loadNewer()}>
            Load the newer text
          </button>{' '}
          <button type="button" className="secondary small" onClick={() => void a.keepMine()}>
            Keep mine
          </button>
        </StatusBanner>
      ) : null}
      <div className="draft-actions">
        <button
          type="button"
          className="secondary small"
          disabled={busy || !a.text.trim()}
          onClick={() => void act(a.saveVersion, 'Version saved.')}
        >
          Save a version
        </button>
        <button
          type="button"
          className="secondary small"
          aria-expanded={versionsOpen}
          aria-controls={ids.versions}
          onClick={() => setVersionsOpen((o) => !o)}
        >
          {versionsOpen ? 'Hide versions' : 'Show versions'}
        </button>
        {note ? (
          <span className="muted" role="status">
            {note}
          </span>
        ) : null}
      </div>
      <div id={ids.versions} hidden={!versionsOpen}>
        {versionsOpen ? (
          <VersionList
            draftId={a.draftId}
            busy={busy}
            onRestore={(body) =>
              void act(() => a.restore(body), 'Version restored. The text it replaced is kept as a version.')
            }
          />
        ) : null}
      </div>
    </div>
  );
}

/** One prompt to write for: which colleges ask it, its limit, and the draft (opened on request). */
function DraftCard({
  slot,
  draft,
  myColleges,
  orphan = false,
  startOpen = false,
}: {
  slot: DraftSlot;
  draft: EssayDraft | undefined;
  myColleges: readonly string[];
  orphan?: boolean;
  /** Just started from a pasted prompt: opened, with the cursor in the draft. */
  startOpen?: boolean;
}) {
  const [open, setOpen] = useState(startOpen);
  const headingId = useId();
  const bodyId = useId();
  const card = useRef<HTMLDivElement>(null);
  const focusDraft = useRef(startOpen);
  // Started from a pasted prompt: open (if it is not) and put the cursor in the draft.
  useEffect(() => {
    if (!startOpen) return;
    focusDraft.current = true;
    setOpen(true);
  }, [startOpen]);
  useEffect(() => {
    if (!open || !focusDraft.current) return;
    focusDraft.current = false;
    card.current?.scrollIntoView?.({ block: 'nearest' });
    card.current?.querySelector<HTMLTextAreaElement>('textarea')?.focus();
  });
  const limit = wordLimitText(slot.wordLimit, slot.wordMin);
  return (
    <div className="card draft-card" role="group" aria-labelledby={headingId} ref={card}>
      <h3 id={headingId} className="draft-prompt">
        {slot.prompt}
      </h3>
      <p className="draft-meta">
        {orphan ? (
          <span className="muted">
            A prompt you added, or one no college on your list asks now. Your draft is kept.
          </span>
        ) : (
          <>
            For {slot.colleges.join(', ')}
            {slot.colleges.length > 1 ? (
              <span className="essay-badge">One draft for {slot.colleges.length} colleges</span>
            ) : null}
          </>
        )}
        {limit ? <span className="essay-badge">{limit}</span> : null}
        <span className="muted draft-summary">
          {draft ? `${wordCountText(draft.wordCount, null)} saved` : 'Not started'}
        </span>
      </p>
      <button
        type="button"
        className={open ? 'secondary small' : 'small'}
        aria-expanded={open}
        aria-controls={bodyId}
        onClick={() => setOpen((o) => !o)}
      >
        {open ? 'Close draft' : draft ? 'Open draft' : 'Start draft'}
      </button>
      <div id={bodyId} hidden={!open}>
        {open ? <DraftEditor slot={slot} draft={draft} myColleges={myColleges} /> : null}
      </div>
    </div>
  );
}

/**
 * The essay workspace: a draft per prompt of the student's colleges, one shared draft where prompts read
 * the same, each with its word limit and a live count, saved as the student types, with earlier versions.
 * The product never writes essay text for the student.
 */
export function EssayWorkspace() {
  const prompts = useMyPrompts();
  const drafts = useDrafts();
  const [started, setStarted] = useState<string | null>(null);
  let body;
  if (prompts.isPending || drafts.isPending) {
    body = (
      <p className="muted" role="status">
        Loading your drafts...
      </p>
    );
  } else if (prompts.isError || drafts.isError) {
    body = <StatusBanner kind="error">{errorMessage(prompts.error ?? drafts.error)}</StatusBanner>;
  } else {
    const slots = draftSlots(prompts.data);
    const byKey = new Map(drafts.data.map((d) => [d.promptKey, d]));
    const myColleges = prompts.data.map((c) => c.collegeName);
    const orphans = orphanDrafts(drafts.data, slots);
    const withoutPrompts = prompts.data.filter((c) => !c.prompts.length).map((c) => c.collegeName);
    body = (
      <>
        {!myColleges.length ? (
          <p className="muted">
            Add colleges to your list, and a draft for each of their essay prompts appears here.
          </p>
        ) : null}
        {slots.length ? (
          <ol className="draft-list" aria-label="Drafts for your colleges">
            {slots.map((slot) => (
              <li key={slot.key}>
                <DraftCard
                  slot={slot}
                  draft={byKey.get(slot.key)}
                  myColleges={myColleges}
                  startOpen={started === slot.key}
                />
              </li>
            ))}
          </ol>
        ) : null}
        <WritingRequirements colleges={withoutPrompts} />
        {orphans.length ? (
          <>
            <h3>Other drafts</h3>
            <ol className="draft-list" aria-label="Other drafts">
              {orphans.map((d) => (
                <li key={d.id}>
                  <DraftCard
                    slot={{
                      key: d.promptKey,
                      prompt: d.prompt,
                      colleges: [],
                      wordLimit: parseWordLimit(d.prompt),
                      wordMin: null,
                    }}
                    draft={d}
                    myColleges={myColleges}
                    orphan
                    startOpen={started === d.promptKey}
                  />
                </li>
              ))}
            </ol>
          </>
        ) : null}
        <PastePrompt onStarted={setStarted} />
      </>
    );
  }
  return (
    <section className="essay-workspace" aria-labelledby="essay-workspace-title">
      <h2 id="essay-workspace-title">Your essay drafts</h2>
      <p className="muted">
        One draft per prompt of your colleges; where prompts read the same, one draft serves them all. Drafts
        save as you type, and earlier versions are kept. We never write essays for you.
      </p>
      {body}
    </section>
  );
}
