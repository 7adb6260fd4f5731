import type { Note } from '@ct/contracts';
import { LIMITS } from '@ct/contracts/limits';
import { MSG } from '@ct/contracts/messages';
import { useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { errorMessage } from '../../api/client';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { formatShortDate } from '@ct/contracts/numbers';
import { formatCalendarDate } from '../../lib/format';
import { SAVED_ON_DEVICE } from '../../offline/OfflineBanner';
import { useNoteActions, useNotes, type NoteForm } from './api';
import { findNotes, useNoteView } from './findNotes';
import { NotesControls } from './NotesControls';
import '../list-view/list-view.css';
import './notes.css';
import { ActionBanner, type Banner, StatusBanner } from '../../components/StatusBanner';

const EMPTY: NoteForm = { title: '', content: '', date: '' };

/** "Failed to create note: {message}", without doubling a prefix the server already gave. */
function failure(prefix: (m: string) => string, err: unknown): string {
  const m = errorMessage(err);
  return /^Failed to (create|update) note/.test(m) ? m : prefix(m);
}

/**
 * The notes form (create mode by default; a note's Edit fills it and locks the title) with the live
 * "Character Count n/2000", and the "Your Notes" list with Edit and Delete on each note.
 */
export function NotesPanel() {
  const notes = useNotes();
  const [noteView] = useNoteView();
  const shownNotes = notes.data ? findNotes(notes.data, noteView) : [];
  const { create, update, remove } = useNoteActions();
  const [form, setForm] = useState<NoteForm>(EMPTY);
  const [editing, setEditing] = useState<Note | null>(null);
  const [banner, setBanner] = useState<Banner>(null);
  const [confirming, setConfirming] = useState<Note | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const contentRef = useRef<HTMLTextAreaElement>(null);
  const busy = create.isPending || update.isPending;
  const count = form.content.length;

  const reset = () => {
    setEditing(null);
    setForm(EMPTY);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBanner(null);
    if (!form.title.trim() || !form.content.trim()) {
      setBanner({ kind: 'error', text: editing ? MSG.updateNoteMissing : MSG.createNoteMissing });
      return;
    }
    if (count > LIMITS.noteContentMax) {
      setBanner({ kind: 'error', text: MSG.noteTooLong });
      return;
    }
    if (editing) {
      try {
        const r = await update.mutateAsync({ note: editing, form });
        reset();
        setBanner({ kind: 'success', text: r.queued ? SAVED_ON_DEVICE : MSG.noteUpdated });
      } catch (err) {
        const m = errorMessage(err);
        setBanner({
          kind: 'error',
          text: m ? failure(MSG.failedToUpdateNote, err) : MSG.failedToUpdateNoteGeneric,
        });
      }
      return;
    }
    try {
      const r = await create.mutateAsync(form);
      reset();
      setBanner({ kind: 'success', text: r.queued ? SAVED_ON_DEVICE : MSG.noteAdded });
    } catch (err) {
      setBanner({ kind: 'error', text: failure(MSG.failedToCreateNote, err) });
    }
  };

  const startEdit = (note: Note) => {
    setBanner(null);
    setEditing(note);
    setForm({ title: note.title, content: note.content, date: note.deadline ?? '' });
    formRef.current?.scrollIntoView({ block: 'start' });
    contentRef.current?.focus();
  };

  const del = async (note: Note) => {
    setBanner(null);
    try {
      const reply = await remove.mutateAsync(note);
      if (editing?.id === note.id) reset();
      setBanner({ kind: 'success', text: reply.message });
    } catch (err) {
      setBanner({ kind: 'error', text: errorMessage(err) });
    } finally {
      setConfirming(null);
    }
  };

  return (
    <section id="notes" className="card notes-panel" aria-labelledby="notes-title">
      <h2 id="notes-title">Notes</h2>
      <p className="banner warning">
        You can keep up to {LIMITS.notesPerUser} notes, and note titles cannot be edited for now. A note with
        a date also shows on your deadlines calendar.
      </p>
      <form
        ref={formRef}
        className="note-form"
        aria-label={editing ? 'Edit note' : 'New note'}
        onSubmit={submit}
      >
        <div className="field">
          <label htmlFor="note-title">Title</label>
          <input
            id="note-title"
            // The browser must not offer one student's note titles to the next on a shared computer.
            autoComplete="off"
            value={form.title}
            maxLength={LIMITS.noteTitleMax}
            readOnly={!!editing}
            aria-readonly={!!editing}
            aria-describedby={editing ? 'note-title-locked' : undefined}
            onChange={(e) => setForm((f) => ({ ...f, title: e.target.value }))}
          />
          {editing ? (
            <p id="note-title-locked" className="muted small-print">
              Titles cannot be edited.
            </p>
          ) : null}
        </div>
        <div className="field">
          <label htmlFor="note-content">Content</label>
          <textarea
            id="note-content"
            ref={contentRef}
            autoComplete="off"
            rows={5}
            value={form.content}
            aria-describedby="note-count note-too-long"
            aria-invalid={count > LIMITS.noteContentMax}
            onChange={(e) => setForm((f) => ({ ...f, content: e.target.value }))}
          />
          <p id="note-count" className={`note-count${count > LIMITS.noteContentMax ? ' over' : ''}`}>
            Character Count {count}/{LIMITS.noteContentMax}
            {count > LIMITS.noteContentMax ? ` (${count - LIMITS.noteContentMax} over)` : ''}
          </p>
          {/* Said the moment the text runs over, not only on Add Note; the text stays, to be shortened. */}
          <p id="note-too-long" className="note-count over" aria-live="polite">
            {count > LIMITS.noteContentMax ? `${MSG.noteTooLong}. Shorten it to save it.` : ''}
          </p>
        </div>
        <div className="field note-date">
          <label htmlFor="note-date">Date (optional)</label>
          <input
            id="note-date"
            type="date"
            value={form.date}
            onChange={(e) => setForm((f) => ({ ...f, date: e.target.value }))}
          />
        </div>
        <div className="note-actions">
          <button type="submit" disabled={busy}>
            {editing
              ? update.isPending
                ? 'Updating...'
                : 'Update Note'
              : create.isPending
                ? 'Adding...'
                : 'Add Note'}
          </button>
          {editing ? (
            <button
              type="button"
              className="secondary"
              onClick={() => {
                reset();
                setBanner(null);
              }}
            >
              Cancel
            </button>
          ) : null}
        </div>
      </form>
      <ActionBanner banner={banner} />

      <h3 id="your-notes-title">Your Notes</h3>
      {notes.isPending ? (
        <p className="muted" role="status">
          Loading notes...
        </p>
      ) : notes.isError ? (
        <StatusBanner kind="error">{errorMessage(notes.error)}</StatusBanner>
      ) : notes.data.length === 0 ? (
        <p className="muted">{MSG.noNotesYet}</p>
      ) : (
        <>
          <NotesControls shown={shownNotes.length} total={notes.data.length} />
          {shownNotes.length === 0 ? <p className="muted">No note matches your search.</p> : null}
          <ul className="notes-list" aria-labelledby="your-notes-title">
            {shownNotes.map((n) => (
              <li key={n.id} className={`note-item${editing?.id === n.id ? ' editing' : ''}`}>
                <h4>{n.title}</h4>
                <NoteContent id={`note-${n.id}`} text={n.content} />
                <p className="muted small-print">
                  {n.deadline ? <>Deadline: {formatCalendarDate(n.deadline)} · </> : null}
                  Created {formatShortDate(new Date(n.createdAt), { local: true })}
                </p>
                <div className="note-actions">
                  <button
                    type="button"
                    className="secondary small"
                    aria-label={`Edit ${n.title}`}
                    onClick={() => startEdit(n)}
                  >
                    Edit
                  </button>
                  <button
                    type="button"
                    className="danger small"
                    aria-label={`Delete ${n.title}`}
                    disabled={remove.isPending && remove.variables?.id === n.id}
                    onClick={() => setConfirming(n)}
                  >
                    Delete
                  </button>
                </div>
              </li>
            ))}
          </ul>
        </>
      )}
      <ConfirmDialog
        open={confirming !== null}
        title="Delete this note?"
        confirmLabel="Delete note"
        danger
        busy={remove.isPending}
        onConfirm={() => confirming && void del(confirming)}
        onCancel={() => setConfirming(null)}
      >
        <p>
          &ldquo;{confirming?.title}&rdquo; will be deleted for good
          {confirming?.deadline ? ', and its date leaves your deadlines calendar' : ''}.
        </p>
      </ConfirmDialog>
    </section>
  );
}

/** A note's text, clamped to a few lines with "Show more" when it is longer than that. */
function NoteContent({ id, text }: { id: string; text: string }) {
  const ref = useRef<HTMLParagraphElement>(null);
  const [open, setOpen] = useState(false);
  const [long, setLong] = useState(false);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || open) return;
    const measure = () => setLong(el.scrollHeight > el.clientHeight + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [text, open]);
  return (
    <>
      <p id={id} ref={ref} className={`note-content${open ? '' : ' clamped'}`}>
        {text}
      </p>
      {long || open ? (
        <button
          type="button"
          className="link note-more"
          aria-expanded={open}
          aria-controls={id}
          onClick={() => setOpen((o) => !o)}
        >
          {open ? 'Show less' : 'Show more'}
        </button>
      ) : null}
    </>
  );
}
