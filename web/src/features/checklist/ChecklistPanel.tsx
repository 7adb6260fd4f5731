import type { Checklist, ChecklistItem } from '@ct/contracts';
import { MSG } from '@ct/contracts/messages';
import { useEffect, useId, useRef, useState } from 'react';
import { errorMessage } from '../../api/client';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { LoadError } from '../../components/LoadError';
import { Countdown } from '../../components/Countdown';
import { TextWithLinks } from '../../components/ExternalLink';
import { useLeaveGuard } from '../../hooks/useLeaveGuard';
import { formatCalendarDate } from '../../lib/format';
import { useChecklist, useChecklistDeadlines, useSaveChecklist, useToggleItem } from './api';
import { checklistProgress, copyChecklist, isDeadlineItem, itemGuard, sectionTitle } from './progress';
import './checklist.css';

export type Notify = (kind: 'success' | 'error', text: string) => void;

/** A resolved deadline of the student's cycle (see `useChecklistDeadlines`). */
type Resolved = { type: string; date: string | null; projected?: boolean; label: string; kind?: string };

/** Kinds of date a student can miss that the college's data may not give: shown as "not known" then. */
const OTHER_KINDS: ReadonlyArray<[string, string]> = [
  ['priority-merit', 'Priority or merit scholarship deadline'],
  ['css-profile', 'CSS Profile deadline'],
  ['interview', 'Interview request deadline'],
];

/** The kinds of date the college's data does not give, said plainly rather than guessed. */
function NotKnown({ resolved }: { resolved: readonly Resolved[] | undefined }) {
  if (!resolved) return null;
  const missing = OTHER_KINDS.filter(([kind]) => !resolved.some((d) => d.kind === kind && d.date));
  if (!missing.length) return null;
  return (
    <p className="muted small-print not-known-dates">
      {missing.map(([, label]) => `${label}: not known`).join(' · ')}. Check the college's site.
    </p>
  );
}

/**
 * A deadline item as the student reads it: its date for the student's cycle when the server resolved
 * one (a projected date says so, in its label), else the stored date.
 */
function deadlineLabel(
  item: Extract<ChecklistItem, { type: string }>,
  resolved: Resolved | undefined,
): string {
  if (resolved?.date)
    return `${item.type}: ${resolved.projected ? resolved.label : formatCalendarDate(resolved.date)}`;
  return `${item.type}: ${item.date === null ? 'Rolling' : formatCalendarDate(item.date)}`;
}

/** The progress bar: rounded percent, the spec's three messages, a colour change at 50 and 100. */
export function ProgressBar({ checklist }: { checklist: Checklist }) {
  const p = checklistProgress(checklist);
  return (
    <div className="checklist-progress">
      <div
        className={`progress-track level-${p.level}`}
        role="progressbar"
        aria-label="Checklist progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={p.percent}
        aria-valuetext={`${p.percent}% complete`}
      >
        <div className="progress-fill" style={{ width: `${p.percent}%` }} />
      </div>
      <p className="progress-text">
        <strong>{p.percent}%</strong> complete ({p.done} of {p.total}) —{' '}
        <span className="progress-message" aria-live="polite">
          {p.message}
        </span>
      </p>
    </div>
  );
}

/**
 * The checklist of the selected college. Outside edit mode a tick is applied at once and sent; Edit
 * Checklist works on a copy (reword, delete, add items; deadline items stay read-only) until Save sends
 * the whole checklist, or Cancel Changes throws the copy away.
 */
export function ChecklistPanel({
  collegeName,
  editing,
  onEditingChange,
  notify,
}: {
  collegeName: string | null;
  editing: boolean;
  onEditingChange(editing: boolean): void;
  notify: Notify;
}) {
  const headingId = useId();
  const query = useChecklist(collegeName);
  return (
    <section id="checklist" className="card dashboard-panel checklist-panel" aria-labelledby={headingId}>
      <h2 id={headingId}>Checklist{collegeName ? ` — ${collegeName}` : ''}</h2>
      {!collegeName ? (
        <p className="muted">Select a college to view its checklist.</p>
      ) : query.isPending ? (
        <p className="muted" role="status">
          Loading checklist...
        </p>
      ) : query.isError && query.data === undefined ? (
        // Only a checklist never read is a load error: a failed re-read (after a tick the server could not
        // take) keeps the checklist on screen, with the tick put back and its own message.
        <LoadError
          what="The checklist could not be loaded."
          error={query.error}
          retrying={query.isFetching}
          onRetry={() => void query.refetch()}
        />
      ) : (
        <ChecklistBody
          key={collegeName}
          collegeName={collegeName}
          checklist={query.data!}
          editing={editing}
          onEditingChange={onEditingChange}
          notify={notify}
        />
      )}
    </section>
  );
}

function ChecklistBody({
  collegeName,
  checklist,
  editing,
  onEditingChange,
  notify,
}: {
  collegeName: string;
  checklist: Checklist;
  editing: boolean;
  onEditingChange(editing: boolean): void;
  notify: Notify;
}) {
  const toggle = useToggleItem(collegeName, () => notify('error', MSG.failedToUpdateChecklist));
  const resolved = useChecklistDeadlines(collegeName);
  const resolvedOf = (type: string) =>
    resolved.data?.find((d) => d.type.trim().toLowerCase() === type.trim().toLowerCase());
  const save = useSaveChecklist(collegeName);
  const [draft, setDraft] = useState<Checklist | null>(null);
  // Ticks waiting for the server, applied in the click's own render so a box never flickers back
  // (the query cache tells its readers a moment later).
  const [pending, setPending] = useState<ReadonlyMap<string, boolean>>(new Map());
  const focusNext = useRef<string | null>(null);

  // Leaving edit mode from outside (the college was removed) drops the copy.
  useEffect(() => {
    if (!editing) setDraft(null);
  }, [editing]);
  useEffect(() => {
    if (!focusNext.current) return;
    document.getElementById(focusNext.current)?.focus();
    focusNext.current = null;
  });

  // Unsaved edits are not lost by accident: leaving the page in the app asks first, and so does the
  // browser when the tab is closed or reloaded.
  const dirty = editing && draft !== null && JSON.stringify(draft) !== JSON.stringify(checklist);
  const guard = useLeaveGuard(dirty);

  const startEdit = () => {
    setDraft(copyChecklist(checklist));
    onEditingChange(true);
  };
  const cancel = () => {
    setDraft(null);
    onEditingChange(false);
  };
  const submit = async () => {
    if (!draft) return;
    try {
      await save.mutateAsync(draft);
      setDraft(null);
      onEditingChange(false);
      notify('success', 'Checklist saved.');
    } catch (err) {
      notify('error', `${MSG.failedToUpdateChecklist} ${errorMessage(err)}`);
    }
  };

  const tickKey = (section: string, index: number, item: ChecklistItem) =>
    `${section}\u0000${index}\u0000${itemGuard(item)}`;
  const withPending = (c: Checklist): Checklist =>
    pending.size
      ? Object.fromEntries(
          Object.entries(c).map(([section, items]) => [
            section,
            items.map((item, i) => {
              const tick = pending.get(tickKey(section, i, item));
              return tick === undefined ? item : { ...item, completed: tick };
            }),
          ]),
        )
      : c;
  const tick = (section: string, index: number, item: ChecklistItem, completed: boolean) => {
    const k = tickKey(section, index, item);
    setPending((p) => new Map(p).set(k, completed));
    void toggle({ section, itemIndex: index, completed, itemText: itemGuard(item) }).finally(() =>
      setPending((p) => {
        const next = new Map(p);
        next.delete(k);
        return next;
      }),
    );
  };

  const shown = editing && draft ? draft : withPending(checklist);
  const sections = Object.entries(shown);
  const edit = (section: string, fn: (items: ChecklistItem[]) => ChecklistItem[]) =>
    setDraft((d) => (d ? { ...d, [section]: fn(d[section] ?? []) } : d));

  return (
    <div className={`checklist${editing ? ' editing' : ''}`}>
      <ConfirmDialog
        open={guard.asking}
        title="Leave without saving?"
        confirmLabel="Leave without saving"
        cancelLabel="Keep editing"
        danger
        // Leaving drops the edits now, not when the next page is drawn: the router draws it in a
        // transition, and a Back pressed before it lands must find the checklist as saved.
        onConfirm={() => {
          guard.leave();
          cancel();
        }}
        onCancel={guard.stay}
      >
        <p>
          Your changes to the {collegeName} checklist are not saved. Save them first, or leave and lose them.
        </p>
      </ConfirmDialog>
      <ProgressBar checklist={shown} />
      <div className="checklist-actions">
        {editing ? (
          <>
            <button type="button" className="secondary" onClick={cancel} disabled={save.isPending}>
              Cancel Changes
            </button>
            <button type="button" onClick={() => void submit()} disabled={save.isPending}>
              {save.isPending ? 'Saving...' : 'Save'}
            </button>
          </>
        ) : (
          <button type="button" onClick={startEdit}>
            Edit Checklist
          </button>
        )}
      </div>
      {sections.length === 0 ? <p className="muted">This checklist has no items yet.</p> : null}
      {sections.map(([section, items]) => {
        const title = sectionTitle(section);
        return (
          <fieldset className="checklist-section" key={section}>
            <legend>{title}</legend>
            {items.length === 0 ? <p className="muted">No items in this section.</p> : null}
            <ul>
              {items.map((item, index) => {
                const id = `check-${section}-${index}`;
                const checkbox = (
                  <input
                    type="checkbox"
                    id={id}
                    checked={item.completed === true}
                    onChange={(e) => {
                      const completed = e.target.checked;
                      if (editing) {
                        edit(section, (list) =>
                          list.map((it, i) => (i === index ? { ...it, completed } : it)),
                        );
                      } else {
                        tick(section, index, item, completed);
                      }
                    }}
                  />
                );
                if (isDeadlineItem(item)) {
                  return (
                    <li key={`d-${index}`} className="checklist-item deadline-item">
                      {checkbox}
                      <label htmlFor={id}>{deadlineLabel(item, resolvedOf(item.type))}</label>
                      {resolvedOf(item.type)?.date ? (
                        <Countdown date={resolvedOf(item.type)!.date!} />
                      ) : item.date && !resolved.data ? (
                        <Countdown date={item.date} />
                      ) : null}
                      {editing ? (
                        <span className="muted read-only-note">From the college (read-only)</span>
                      ) : null}
                    </li>
                  );
                }
                if (!editing) {
                  return (
                    <li key={`t-${index}`} className="checklist-item">
                      {checkbox}
                      <label htmlFor={id}>
                        <TextWithLinks text={item.text} />
                      </label>
                    </li>
                  );
                }
                const inputId = `edit-${section}-${index}`;
                return (
                  <li key={`t-${index}`} className="checklist-item editing">
                    <input
                      type="checkbox"
                      checked={item.completed}
                      aria-label={`Done: item ${index + 1} of ${title}`}
                      onChange={(e) =>
                        edit(section, (list) =>
                          list.map((it, i) => (i === index ? { ...it, completed: e.target.checked } : it)),
                        )
                      }
                    />
                    <input
                      type="text"
                      id={inputId}
                      className="item-text"
                      value={item.text}
                      maxLength={500}
                      aria-label={`Item ${index + 1} of ${title}`}
                      onChange={(e) =>
                        edit(section, (list) =>
                          list.map((it, i) => (i === index ? { ...it, text: e.target.value } : it)),
                        )
                      }
                    />
                    <button
                      type="button"
                      className="secondary small"
                      aria-label={`Delete item ${index + 1} of ${title}`}
                      onClick={() => edit(section, (list) => list.filter((_, i) => i !== index))}
                    >
                      Delete
                    </button>
                  </li>
                );
              })}
            </ul>
            {section === 'deadlines' ? <NotKnown resolved={resolved.data} /> : null}
            {editing ? (
              <button
                type="button"
                className="link add-item"
                onClick={() => {
                  focusNext.current = `edit-${section}-${items.length}`;
                  edit(section, (list) => [...list, { text: '', completed: false }]);
                }}
              >
                Add item to {title}
              </button>
            ) : null}
          </fieldset>
        );
      })}
    </div>
  );
}
