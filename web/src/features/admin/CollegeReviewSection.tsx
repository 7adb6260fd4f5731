import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { api } from '../../api/client';
import { AdminList } from './AdminList';
import { formatDateTime } from './parts';
import { ADMIN_KEY, adminErrorText } from './useAdminQuery';
import { ActionBanner, type Banner } from '../../components/StatusBanner';

type Kind = 'shared' | 'review';
/** The admin's decisions on one college: Approve (review items), Merge into another, Delete. */
type Action =
  | { type: 'approve'; id: number }
  | { type: 'merge'; kind: Kind; id: number; into: string }
  | { type: 'delete'; kind: Kind; id: number };

/** Runs one decision, says what happened, and refreshes every admin list (the change shows everywhere). */
export function useCollegeActions() {
  const [banner, setBanner] = useState<Banner>(null);
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: async (a: Action) => {
      if (a.type === 'approve') return api.adminApproveCollege({ collegeId: a.id });
      if (a.type === 'merge') return api.adminMergeCollege({ kind: a.kind, collegeId: a.id, into: a.into });
      return api.adminDeleteCollege({ kind: a.kind, collegeId: a.id });
    },
    onMutate: () => setBanner(null),
    onSuccess: (r) => setBanner({ kind: 'success', text: r.message }),
    onError: (err) => setBanner({ kind: 'error', text: adminErrorText(err) }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: [ADMIN_KEY] }),
  });
  return { banner, run: (a: Action) => mutation.mutate(a), busy: mutation.isPending };
}

/**
 * Merge and Delete for one college (and Approve for a review item). Merge asks for the name of the
 * college to merge into; Delete asks to be confirmed. Nothing happens on a single stray click.
 */
export function CollegeActions({
  kind,
  id,
  name,
  run,
  busy,
}: {
  kind: Kind;
  id: number;
  name: string;
  run: (a: Action) => void;
  busy: boolean;
}) {
  const [mode, setMode] = useState<'idle' | 'merge' | 'delete'>('idle');
  const [into, setInto] = useState('');
  const inputId = useId();
  const merge = (e: FormEvent) => {
    e.preventDefault();
    if (!into.trim()) return;
    run({ type: 'merge', kind, id, into: into.trim() });
    setMode('idle');
  };
  if (mode === 'merge')
    return (
      <form className="admin-actions" onSubmit={merge}>
        <label htmlFor={inputId}>Merge &ldquo;{name}&rdquo; into</label>
        <input
          id={inputId}
          value={into}
          placeholder="Official name of a shared college"
          autoComplete="off"
          onChange={(e) => setInto(e.target.value)}
        />
        <button type="submit" disabled={busy || !into.trim()}>
          Merge
        </button>
        <button type="button" className="secondary" onClick={() => setMode('idle')}>
          Cancel
        </button>
      </form>
    );
  if (mode === 'delete')
    return (
      <div className="admin-actions">
        <span>Delete &ldquo;{name}&rdquo;?</span>
        <button
          type="button"
          className="danger"
          disabled={busy}
          onClick={() => {
            run({ type: 'delete', kind, id });
            setMode('idle');
          }}
        >
          Confirm delete
        </button>
        <button type="button" className="secondary" onClick={() => setMode('idle')}>
          Cancel
        </button>
      </div>
    );
  return (
    <div className="admin-actions">
      {kind === 'review' ? (
        <button
          type="button"
          disabled={busy}
          aria-label={`Approve ${name}`}
          onClick={() => run({ type: 'approve', id })}
        >
          Approve
        </button>
      ) : null}
      <button
        type="button"
        className="secondary"
        aria-label={`Merge ${name}`}
        onClick={() => setMode('merge')}
      >
        Merge…
      </button>
      <button
        type="button"
        className="secondary"
        aria-label={`Delete ${name}`}
        onClick={() => setMode('delete')}
      >
        Delete
      </button>
    </div>
  );
}

/**
 * College review: colleges no government record confirms and whose official website did not match the
 * name typed. Only the students who asked see them until an admin approves (shares), merges or deletes.
 */
export function CollegeReviewSection() {
  const actions = useCollegeActions();
  return (
    <AdminList
      name="college-reviews"
      fetch={({ offset, limit }, signal) => api.adminCollegeReviews({ offset, limit }, { signal })}
      rows={(r) => r.reviews}
      before={
        <>
          <p className="muted">
            Colleges gathered for a name no government record confirms, whose official website did not match
            the name typed. Only the students who asked can see them until you decide.
          </p>
          <ActionBanner banner={actions.banner} />
        </>
      }
      empty="No college is waiting for review."
      caption="Colleges waiting for review"
      pagerLabel="Colleges waiting for review"
      rowKey={(r) => String(r.id)}
      columns={[
        { header: 'Typed', cell: (r) => r.requestedName },
        { header: 'Found as', cell: (r) => r.name },
        { header: 'Website', cell: (r) => r.website ?? '—', className: 'admin-mono' },
        { header: 'Why review', cell: (r) => r.reason, className: 'admin-note' },
        { header: 'Asked by', cell: (r) => r.requestedBy.length },
        { header: 'Found at', cell: (r) => formatDateTime(r.createdAt) },
        {
          header: 'Decision',
          cell: (r) => (
            <CollegeActions kind="review" id={r.id} name={r.name} run={actions.run} busy={actions.busy} />
          ),
        },
      ]}
    />
  );
}
