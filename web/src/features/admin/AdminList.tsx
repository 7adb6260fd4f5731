import { useState, type ReactNode } from 'react';
import { useDebounced } from '../../hooks/useDebounced';
import { AdminTable, FilterInput, Pager, QueryState, type Column } from './parts';
import { useAdminQuery } from './useAdminQuery';

const PAGE = 25;
const FILTER_PAUSE_MS = 300;

/** One page of a list, as the admin API answers it. */
export interface ListPage {
  total: number;
}

export interface AdminListProps<Reply extends ListPage, Row> {
  /** Its queries' name under the admin key (Refresh Data refetches every admin list). */
  name: string;
  /** Reads one page; `filter` is the text filter once typing pauses (undefined when empty). */
  fetch: (
    page: { filter: string | undefined; offset: number; limit: number },
    signal: AbortSignal,
  ) => Promise<Reply>;
  /** The rows of a page. */
  rows: (reply: Reply) => Row[];
  /** A text filter, reaching the server once typing pauses and sending the list back to its first page. */
  filter?: { id: string; label: string };
  /**
   * Other inputs of the query (a role, the full-data switch). A change of one listed in `resetOn` sends
   * the list back to its first page too.
   */
  params?: readonly unknown[];
  resetOn?: readonly unknown[];
  /** Controls beside the filter. */
  controls?: ReactNode;
  /** Shown above the list: an explanation, the banner of the last action. */
  before?: ReactNode;
  /** Said instead of an empty table (without it, the pager says "No results"). */
  empty?: string;
  caption: string;
  /** Names the pager for screen readers ("Staff pages"). */
  pagerLabel: string;
  rowKey: (row: Row, index: number) => string;
  columns: Array<Column<Row>>;
  /** Shown under the pager, with the page's rows (the colleges' full data). */
  after?: (rows: Row[]) => ReactNode;
}

/**
 * One admin list: an optional filter and controls, "Loading..." or the error text, a table, and a pager
 * of 25 rows a page. Every list section of the dashboard is one of these.
 */
export function AdminList<Reply extends ListPage, Row>(p: AdminListProps<Reply, Row>) {
  const [text, setText] = useState('');
  const filter = useDebounced(text.trim(), FILTER_PAUSE_MS) || undefined;
  // The page belongs to one filter and one set of `resetOn` values; any other starts at the first page.
  const at = JSON.stringify([filter ?? '', ...(p.resetOn ?? [])]);
  const [page, setPage] = useState({ at, offset: 0 });
  const offset = page.at === at ? page.offset : 0;
  const q = useAdminQuery([p.name, filter, offset, ...(p.params ?? [])], (signal) =>
    p.fetch({ filter, offset, limit: PAGE }, signal),
  );
  const rows = q.data ? p.rows(q.data) : [];
  const toolbar = p.filter ? (
    <FilterInput id={p.filter.id} label={p.filter.label} value={text} onChange={setText} />
  ) : null;
  return (
    <>
      {p.before}
      {p.controls ? (
        <div className="admin-toolbar">
          {toolbar}
          {p.controls}
        </div>
      ) : (
        toolbar
      )}
      <QueryState isPending={q.isPending} error={q.error} />
      {q.data &&
        (p.empty && q.data.total === 0 ? (
          <p className="muted">{p.empty}</p>
        ) : (
          <>
            <AdminTable caption={p.caption} rows={rows} rowKey={p.rowKey} columns={p.columns} />
            <Pager
              label={p.pagerLabel}
              total={q.data.total}
              offset={offset}
              limit={PAGE}
              onOffset={(o) => setPage({ at, offset: o })}
            />
            {p.after?.(rows)}
          </>
        ))}
    </>
  );
}
