import { MSG } from '@ct/contracts/messages';
import { useState, type ReactNode } from 'react';
import { adminErrorText } from './useAdminQuery';
import { StatusBanner } from '../../components/StatusBanner';

/** A collapsible section of the dashboard; its content (and its queries) mount only while open. */
export function Section({
  id,
  title,
  children,
  defaultOpen = true,
}: {
  id: string;
  title: string;
  children: ReactNode;
  defaultOpen?: boolean;
}) {
  const [open, setOpen] = useState(defaultOpen);
  return (
    <section className="admin-section card" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>
        <button
          type="button"
          className="admin-section-toggle"
          aria-expanded={open}
          aria-controls={`${id}-body`}
          onClick={() => setOpen((o) => !o)}
        >
          <span>{title}</span>
          <span aria-hidden="true">{open ? '▾' : '▸'}</span>
        </button>
      </h2>
      <div id={`${id}-body`} hidden={!open}>
        {open ? children : null}
      </div>
    </section>
  );
}

/** "Loading..." while the first load runs, the error text when it failed, nothing otherwise. */
export function QueryState({ isPending, error }: { isPending: boolean; error: unknown }) {
  if (error) return <StatusBanner kind="error">{adminErrorText(error)}</StatusBanner>;
  if (isPending)
    return (
      <p className="muted" role="status">
        {MSG.loading}
      </p>
    );
  return null;
}

/** A labelled text filter. */
export function FilterInput({
  id,
  label,
  value,
  onChange,
  placeholder,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
  placeholder?: string;
}) {
  return (
    <div className="field admin-filter">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="search"
        value={value}
        placeholder={placeholder}
        autoComplete="off"
        onChange={(e) => onChange(e.target.value)}
      />
    </div>
  );
}

const n = (x: number) => x.toLocaleString('en-US');

/** "Showing 51–100 of 10,000" with Previous / Next. */
export function Pager({
  label,
  total,
  offset,
  limit,
  onOffset,
}: {
  label: string;
  total: number;
  offset: number;
  limit: number;
  onOffset: (o: number) => void;
}) {
  const first = total === 0 ? 0 : offset + 1;
  const last = Math.min(offset + limit, total);
  return (
    <nav className="admin-pager" aria-label={`${label} pages`}>
      <span aria-live="polite">
        {total === 0 ? 'No results' : `Showing ${n(first)}–${n(last)} of ${n(total)}`}
      </span>
      <button
        type="button"
        className="secondary"
        disabled={offset === 0}
        onClick={() => onOffset(Math.max(0, offset - limit))}
      >
        Previous
      </button>
      <button
        type="button"
        className="secondary"
        disabled={offset + limit >= total}
        onClick={() => onOffset(offset + limit)}
      >
        Next
      </button>
    </nav>
  );
}

/** A date-time as the admin's browser writes it. */
export function formatDateTime(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
}

export interface Column<Row> {
  header: string;
  cell: (row: Row) => ReactNode;
  className?: string;
}

/** One admin list: a table with a caption for screen readers, one column per field. */
export function AdminTable<Row>({
  caption,
  columns,
  rows,
  rowKey,
}: {
  caption: string;
  columns: Array<Column<Row>>;
  rows: Row[];
  rowKey: (row: Row, index: number) => string;
}) {
  return (
    <div className="admin-table-wrap">
      <table className="admin-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.header} scope="col">
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => (
            <tr key={rowKey(row, i)}>
              {columns.map((c) => (
                <td key={c.header} className={c.className} data-label={c.header}>
                  {c.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
