import type { FactReview } from '@ct/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api/client';
import { AdminTable, formatDateTime, Pager, QueryState } from './parts';
import { ADMIN_KEY, adminErrorText, useAdminQuery } from './useAdminQuery';
import { ActionBanner, type Banner } from '../../components/StatusBanner';

const PAGE = 25;

/** Approve or Drop one held fact, saying what happened and refreshing every admin list. */
function useFactDecision() {
  const [banner, setBanner] = useState<Banner>(null);
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: (a: { factId: number; decision: 'approve' | 'drop' }) => api.adminDecideFact(a),
    onMutate: () => setBanner(null),
    onSuccess: (r) => setBanner({ kind: 'success', text: r.message }),
    onError: (err) => setBanner({ kind: 'error', text: adminErrorText(err) }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: [ADMIN_KEY] }),
  });
  return { banner, run: mutation.mutate, busy: mutation.isPending };
}

/** The fact itself, its page and why it waits: what an admin needs to decide. */
function FactCell({ fact }: { fact: FactReview }) {
  return (
    <>
      <ul className="admin-fact-items">
        {fact.items.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
      <span className="admin-mono">{fact.sourceUrl ?? 'no page named'}</span>
    </>
  );
}

/**
 * Facts waiting for review: what an AI answer said about a shared college that no page on its official
 * website (College Scorecard) vouched for, and every name an AI answer gave. Only the students whose
 * search gathered them see them until an admin approves (shares) or drops them.
 */
export function FactReviewSection() {
  const [offset, setOffset] = useState(0);
  const decide = useFactDecision();
  const q = useAdminQuery(['fact-reviews', offset], (signal) =>
    api.adminFactReviews({ offset, limit: PAGE }, { signal }),
  );
  return (
    <>
      <p className="muted">
        Facts an AI answer gave about a listed college that no page on its official website confirms, and
        every other name an AI answer gave. Only the students who asked see them, marked unverified, until you
        decide.
      </p>
      <ActionBanner banner={decide.banner} />
      <QueryState isPending={q.isPending} error={q.error} />
      {q.data &&
        (q.data.total === 0 ? (
          <p className="muted">No fact is waiting for review.</p>
        ) : (
          <>
            <AdminTable
              caption="Facts waiting for review"
              rows={q.data.facts}
              rowKey={(f) => String(f.id)}
              columns={[
                { header: 'College', cell: (f) => f.collegeName },
                { header: 'Fact', cell: (f) => f.label },
                { header: 'As given', cell: (f) => <FactCell fact={f} /> },
                {
                  header: 'Official website',
                  cell: (f) => f.officialWebsite ?? '—',
                  className: 'admin-mono',
                },
                { header: 'Why review', cell: (f) => f.reason, className: 'admin-note' },
                { header: 'Seen by', cell: (f) => f.requestedBy.length },
                { header: 'Found at', cell: (f) => formatDateTime(f.createdAt) },
                {
                  header: 'Decision',
                  cell: (f) => (
                    <div className="admin-actions">
                      <button
                        type="button"
                        disabled={decide.busy}
                        aria-label={`Approve ${f.label} of ${f.collegeName}`}
                        onClick={() => decide.run({ factId: f.id, decision: 'approve' })}
                      >
                        Approve
                      </button>
                      <button
                        type="button"
                        className="secondary"
                        disabled={decide.busy}
                        aria-label={`Drop ${f.label} of ${f.collegeName}`}
                        onClick={() => decide.run({ factId: f.id, decision: 'drop' })}
                      >
                        Drop
                      </button>
                    </div>
                  ),
                },
              ]}
            />
            <Pager
              label="Facts waiting for review"
              total={q.data.total}
              offset={offset}
              limit={PAGE}
              onOffset={setOffset}
            />
          </>
        ))}
    </>
  );
}
