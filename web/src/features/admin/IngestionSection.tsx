import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api/client';
import { formatDateTime, Pager, QueryState } from './parts';
import { ADMIN_KEY, adminErrorText, useAdminQuery } from './useAdminQuery';
import { ActionBanner } from '../../components/StatusBanner';

const PAGE = 25;

/** Queue depth, running requests, failed requests with their reasons, and Retry (the page's only write). */
export function IngestionSection() {
  const [offset, setOffset] = useState(0);
  const [banner, setBanner] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);
  const queryClient = useQueryClient();
  const q = useAdminQuery(['ingestion', offset], (signal) =>
    api.adminIngestion({ offset, limit: PAGE }, { signal }),
  );
  const retry = useMutation({
    mutationFn: (key: string) => api.adminRetryIngestion({ key }),
    onSuccess: (r) => setBanner({ kind: 'success', text: r.message }),
    onError: (err) => setBanner({ kind: 'error', text: adminErrorText(err) }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: [ADMIN_KEY, 'ingestion'] }),
  });
  const data = q.data?.ingestion;
  return (
    <>
      <ActionBanner banner={banner} />
      <QueryState isPending={q.isPending} error={q.error} />
      {data && (
        <>
          <dl className="admin-metrics">
            {(
              [
                ['Queue depth', data.queue.waiting + data.queue.delayed],
                ['Running', data.queue.active],
                ['Completed', data.queue.completed],
                ['Failed', data.totalFailed],
              ] as const
            ).map(([label, value]) => (
              <div key={label} className="admin-metric">
                <dt>{label}</dt>
                <dd>{value.toLocaleString('en-US')}</dd>
              </div>
            ))}
          </dl>

          <h3>Running</h3>
          {data.running.length === 0 ? (
            <p className="muted">No request is running.</p>
          ) : (
            <div className="admin-table-wrap">
              <table className="admin-table">
                <caption className="visually-hidden">Running ingestion requests</caption>
                <thead>
                  <tr>
                    <th scope="col">College</th>
                    <th scope="col">Stage</th>
                    <th scope="col">Attempts</th>
                    <th scope="col">Requested</th>
                  </tr>
                </thead>
                <tbody>
                  {data.running.map((r) => (
                    <tr key={r.key}>
                      <td>{r.name}</td>
                      <td>{r.stage}</td>
                      <td>{r.attempts}</td>
                      <td>{formatDateTime(r.requestedAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}

          <h3>Failed requests</h3>
          {data.failed.length === 0 ? (
            <p className="muted">No failed request.</p>
          ) : (
            <div className="admin-table-wrap">
              <table className="admin-table">
                <caption className="visually-hidden">Failed ingestion requests</caption>
                <thead>
                  <tr>
                    <th scope="col">College</th>
                    <th scope="col">Reason</th>
                    <th scope="col">Attempts</th>
                    <th scope="col">Failed at</th>
                    <th scope="col">
                      <span className="visually-hidden">Action</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.failed.map((r) => (
                    <tr key={r.key}>
                      <td>{r.name}</td>
                      <td>{r.failureReason ?? '—'}</td>
                      <td>{r.attempts}</td>
                      <td>{formatDateTime(r.updatedAt)}</td>
                      <td>
                        <button
                          type="button"
                          className="secondary"
                          aria-label={`Retry ${r.name}`}
                          disabled={retry.isPending && retry.variables === r.key}
                          onClick={() => {
                            setBanner(null);
                            retry.mutate(r.key);
                          }}
                        >
                          Retry
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {data.totalFailed > 0 && (
            <Pager
              label="Failed requests"
              total={data.totalFailed}
              offset={offset}
              limit={PAGE}
              onOffset={setOffset}
            />
          )}
        </>
      )}
    </>
  );
}
