import { useState } from 'react';
import { api } from '../../api/client';
import { useDebounced } from '../../hooks/useDebounced';
import { ActionBanner, CollegeActions, useCollegeActions } from './CollegeReviewSection';
import { AdminTable, FilterInput, formatDateTime, Pager, QueryState } from './parts';
import { useAdminQuery } from './useAdminQuery';

const PAGE = 25;
const FILTER_PAUSE_MS = 300;

/** A text filter that reaches the server once typing pauses, and sends the list back to page 1. */
function useFilter() {
  const [value, setValue] = useState('');
  const [offset, setOffset] = useState(0);
  const debounced = useDebounced(value.trim(), FILTER_PAUSE_MS);
  return {
    value,
    setValue: (v: string) => {
      setValue(v);
      setOffset(0);
    },
    debounced: debounced || undefined,
    offset,
    setOffset,
  };
}

export function MetricsSection() {
  const q = useAdminQuery(['metrics'], (signal) => api.adminMetrics(undefined, { signal }));
  const m = q.data?.metrics;
  return (
    <>
      <QueryState isPending={q.isPending} error={q.error} />
      {m && (
        <dl className="admin-metrics">
          {(
            [
              ['Colleges', m.colleges],
              ['Staff', m.staff],
              ['Profiles', m.profiles],
            ] as const
          ).map(([label, value]) => (
            <div key={label} className="admin-metric">
              <dt>{label}</dt>
              <dd data-testid={`metric-${label.toLowerCase()}`}>{value.toLocaleString('en-US')}</dd>
            </div>
          ))}
        </dl>
      )}
    </>
  );
}

export function CollegesSection() {
  const f = useFilter();
  const [full, setFull] = useState(false);
  const q = useAdminQuery(['colleges', f.debounced, f.offset, full], (signal) =>
    api.adminColleges(
      { name: f.debounced, offset: f.offset, limit: PAGE, ...(full ? { full: true } : {}) },
      { signal },
    ),
  );
  const rows = q.data?.colleges ?? [];
  const actions = useCollegeActions();
  return (
    <>
      <ActionBanner banner={actions.banner} />
      <div className="admin-toolbar">
        <FilterInput
          id="admin-colleges-filter"
          label="Filter colleges by name"
          value={f.value}
          onChange={f.setValue}
        />
        <button type="button" className="secondary" aria-pressed={full} onClick={() => setFull((x) => !x)}>
          {full ? 'Hide Full Data' : 'Show Full Data'}
        </button>
      </div>
      <QueryState isPending={q.isPending} error={q.error} />
      {q.data && (
        <>
          <AdminTable
            caption="Colleges"
            rows={rows}
            rowKey={(c) => String(c.id)}
            columns={[
              { header: 'Name', cell: (c) => c.name },
              { header: 'City', cell: (c) => c.city ?? '—' },
              { header: 'State', cell: (c) => c.state ?? '—' },
              { header: 'Created At', cell: (c) => formatDateTime(c.createdAt) },
              {
                header: 'Actions',
                cell: (c) => (
                  <CollegeActions
                    kind="shared"
                    id={c.id}
                    name={c.name}
                    run={actions.run}
                    busy={actions.busy}
                  />
                ),
              },
            ]}
          />
          <Pager
            label="Colleges"
            total={q.data.total}
            offset={f.offset}
            limit={PAGE}
            onOffset={f.setOffset}
          />
          {full && (
            <pre className="admin-json" tabIndex={0} aria-label="Full data of the colleges on this page">
              {JSON.stringify(
                rows.map((r) => r.data ?? r),
                null,
                2,
              )}
            </pre>
          )}
        </>
      )}
    </>
  );
}

export function StaffSection() {
  const f = useFilter();
  const [role, setRole] = useState('');
  const q = useAdminQuery(['staff', f.debounced, role, f.offset], (signal) =>
    api.adminStaff(
      { filterUserId: f.debounced, role: role || undefined, offset: f.offset, limit: PAGE },
      { signal },
    ),
  );
  return (
    <>
      <div className="admin-toolbar">
        <FilterInput
          id="admin-staff-filter"
          label="Filter staff by user id"
          value={f.value}
          onChange={f.setValue}
        />
        <div className="field admin-filter">
          <label htmlFor="admin-staff-role">Role</label>
          <select
            id="admin-staff-role"
            value={role}
            onChange={(e) => {
              setRole(e.target.value);
              f.setOffset(0);
            }}
          >
            <option value="">Any role</option>
            <option value="admin">admin</option>
            <option value="staff">staff</option>
          </select>
        </div>
      </div>
      <QueryState isPending={q.isPending} error={q.error} />
      {q.data && (
        <>
          <AdminTable
            caption="Staff members"
            rows={q.data.staff}
            rowKey={(s) => s.userId}
            columns={[
              { header: 'User ID', cell: (s) => s.userId, className: 'admin-mono' },
              { header: 'Role', cell: (s) => s.role },
              { header: 'Email', cell: (s) => s.email ?? '—' },
            ]}
          />
          <Pager label="Staff" total={q.data.total} offset={f.offset} limit={PAGE} onOffset={f.setOffset} />
        </>
      )}
    </>
  );
}

export function MajorCollegesSection() {
  const f = useFilter();
  const q = useAdminQuery(['major-colleges', f.debounced, f.offset], (signal) =>
    api.adminMajorColleges({ name: f.debounced, offset: f.offset, limit: PAGE }, { signal }),
  );
  return (
    <>
      <FilterInput
        id="admin-majors-filter"
        label="Filter majors by name"
        value={f.value}
        onChange={f.setValue}
      />
      <QueryState isPending={q.isPending} error={q.error} />
      {q.data && (
        <>
          <AdminTable
            caption="Major colleges"
            rows={q.data.majorColleges}
            rowKey={(m) => m.name}
            columns={[
              { header: 'Major', cell: (m) => m.name },
              { header: 'Associated colleges', cell: (m) => m.colleges.length },
              { header: 'Colleges', cell: (m) => m.colleges.join(', ') },
            ]}
          />
          <Pager label="Majors" total={q.data.total} offset={f.offset} limit={PAGE} onOffset={f.setOffset} />
        </>
      )}
    </>
  );
}

export function UserCollegesSection() {
  const f = useFilter();
  const q = useAdminQuery(['user-colleges', f.debounced, f.offset], (signal) =>
    api.adminUserColleges({ filterUserId: f.debounced, offset: f.offset, limit: PAGE }, { signal }),
  );
  return (
    <>
      <FilterInput
        id="admin-user-colleges-filter"
        label="Filter by user id"
        value={f.value}
        onChange={f.setValue}
      />
      <QueryState isPending={q.isPending} error={q.error} />
      {q.data && (
        <>
          <AdminTable
            caption="User colleges"
            rows={q.data.userColleges}
            rowKey={(u) => u.userId}
            columns={[
              { header: 'User ID', cell: (u) => u.userId, className: 'admin-mono' },
              {
                header: 'Colleges added',
                cell: (u) => u.colleges.map((c) => c.collegeName).join(', ') || '—',
              },
            ]}
          />
          <Pager
            label="User colleges"
            total={q.data.total}
            offset={f.offset}
            limit={PAGE}
            onOffset={f.setOffset}
          />
        </>
      )}
    </>
  );
}

export function ProfileNotesSection() {
  const f = useFilter();
  const q = useAdminQuery(['profile-notes', f.debounced, f.offset], (signal) =>
    api.adminProfileNotes({ filterUserId: f.debounced, offset: f.offset, limit: PAGE }, { signal }),
  );
  return (
    <>
      <FilterInput
        id="admin-notes-filter"
        label="Filter notes by user id"
        value={f.value}
        onChange={f.setValue}
      />
      <QueryState isPending={q.isPending} error={q.error} />
      {q.data && (
        <>
          <AdminTable
            caption="Profile notes"
            rows={q.data.profileNotes.flatMap((p) =>
              p.notes.map((note, i) => ({ userId: p.userId, note, i })),
            )}
            rowKey={(r) => `${r.userId}-${r.i}`}
            columns={[
              { header: 'User ID', cell: (r) => r.userId, className: 'admin-mono' },
              { header: 'Title', cell: (r) => r.note.title },
              { header: 'Content', cell: (r) => r.note.content, className: 'admin-note' },
              { header: 'Created At', cell: (r) => formatDateTime(r.note.createdAt) },
            ]}
          />
          <Pager
            label="Profile notes"
            total={q.data.total}
            offset={f.offset}
            limit={PAGE}
            onOffset={f.setOffset}
          />
        </>
      )}
    </>
  );
}
