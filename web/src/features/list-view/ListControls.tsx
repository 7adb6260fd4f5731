import { APPLICATION_STATUSES, STATUS_LABELS } from '@ct/contracts/season';
import { isFiltered, LIST_SORTS, SORT_LABELS, useListView } from './listView';
import './list-view.css';

/**
 * Filter a list of colleges by name and status and choose its order. The choices live in the URL, so
 * every list of the page that reads them (the sidebar and the season overview) shows the same selection.
 * `idPrefix` keeps the labels' ids apart when two of these are on one page.
 */
export function ListControls({
  idPrefix,
  shown,
  total,
}: {
  idPrefix: string;
  /** How many colleges the choices leave, of `total`. */
  shown: number;
  total: number;
}) {
  const [view, set] = useListView();
  const filtered = isFiltered(view);
  return (
    <div className="list-controls" role="search" aria-label="Filter and sort your colleges">
      <div className="list-control">
        <label htmlFor={`${idPrefix}-q`}>Filter by name</label>
        <input
          id={`${idPrefix}-q`}
          type="search"
          value={view.q}
          maxLength={100}
          autoComplete="off"
          onChange={(e) => set({ q: e.target.value })}
        />
      </div>
      <div className="list-control">
        <label htmlFor={`${idPrefix}-status`}>Status</label>
        <select
          id={`${idPrefix}-status`}
          value={view.status}
          onChange={(e) => set({ status: e.target.value as typeof view.status })}
        >
          <option value="">Any status</option>
          {APPLICATION_STATUSES.map((s) => (
            <option key={s} value={s}>
              {STATUS_LABELS[s]}
            </option>
          ))}
        </select>
      </div>
      <div className="list-control">
        <label htmlFor={`${idPrefix}-sort`}>Sort by</label>
        <select
          id={`${idPrefix}-sort`}
          value={view.sort}
          onChange={(e) => set({ sort: e.target.value as typeof view.sort })}
        >
          {LIST_SORTS.map((s) => (
            <option key={s} value={s}>
              {SORT_LABELS[s]}
            </option>
          ))}
        </select>
      </div>
      {filtered ? (
        <p className="list-count" role="status">
          {shown} of {total} shown{' '}
          <button type="button" className="link" onClick={() => set({ q: '', status: '' })}>
            Clear filters
          </button>
        </p>
      ) : null}
    </div>
  );
}
