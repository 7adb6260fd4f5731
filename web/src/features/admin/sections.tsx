import type {
  adminColleges,
  adminMajorColleges,
  adminMetrics,
  adminProfileNotes,
  adminStaff,
  adminUserColleges,
} from '@ct/contracts';
import { useState } from 'react';
import { api } from '../../api/client';
import { useDebounced } from '../../hooks/useDebounced';
import { FilterInput, formatDateTime, Pager, QueryState } from './parts';
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
  const q = useAdminQuery(['metrics'], (signal) =>
    api<typeof adminMetrics>('GET', '/admin/metrics', { signal }),
  );
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
    api<typeof adminColleges>('GET', '/admin/colleges', {
      query: { name: f.debounced, offset: f.offset, limit: PAGE, ...(full ? { full: true } : {}) },
      signal,
    }),
  );
  const rows = q.data?.colleges ?? [];
  return (
    <>
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
          <div className="admin-table-wrap">
            <table className="admin-table">
              <caption className="visually-hidden">Colleges</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">City</th>
                  <th scope="col">State</th>
                  <th scope="col">Created At</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((c) => (
                  <tr key={c.name}>
                    <td>{c.name}</td>
                    <td>{c.city ?? '—'}</td>
                    <td>{c.state ?? '—'}</td>
                    <td>{formatDateTime(c.createdAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
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
    api<typeof adminStaff>('GET', '/admin/staff', {
      query: { filterUserId: f.debounced, role: role || undefined, offset: f.offset, limit: PAGE },
      signal,
    }),
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
          <div className="admin-table-wrap">
            <table className="admin-table">
              <caption className="visually-hidden">Staff members</caption>
              <thead>
                <tr>
                  <th scope="col">User ID</th>
                  <th scope="col">Role</th>
                  <th scope="col">Email</th>
                </tr>
              </thead>
              <tbody>
                {q.data.staff.map((s) => (
                  <tr key={s.userId}>
                    <td className="admin-mono">{s.userId}</td>
                    <td>{s.role}</td>
                    <td>{s.email ?? '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager label="Staff" total={q.data.total} offset={f.offset} limit={PAGE} onOffset={f.setOffset} />
        </>
      )}
    </>
  );
}

export function MajorCollegesSection() {
  const f = useFilter();
  const q = useAdminQuery(['major-colleges', f.debounced, f.offset], (signal) =>
    api<typeof adminMajorColleges>('GET', '/admin/major-colleges', {
      query: { name: f.debounced, offset: f.offset, limit: PAGE },
      signal,
    }),
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
          <div className="admin-table-wrap">
            <table className="admin-table">
              <caption className="visually-hidden">Major colleges</caption>
              <thead>
                <tr>
                  <th scope="col">Major</th>
                  <th scope="col">Associated colleges</th>
                  <th scope="col">Colleges</th>
                </tr>
              </thead>
              <tbody>
                {q.data.majorColleges.map((m) => (
                  <tr key={m.name}>
                    <td>{m.name}</td>
                    <td>{m.colleges.length}</td>
                    <td>{m.colleges.join(', ')}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager label="Majors" total={q.data.total} offset={f.offset} limit={PAGE} onOffset={f.setOffset} />
        </>
      )}
    </>
  );
}

export function UserCollegesSection() {
  const f = useFilter();
  const q = useAdminQuery(['user-colleges', f.debounced, f.offset], (signal) =>
    api<typeof adminUserColleges>('GET', '/admin/user-colleges', {
      query: { filterUserId: f.debounced, offset: f.offset, limit: PAGE },
      signal,
    }),
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
          <div className="admin-table-wrap">
            <table className="admin-table">
              <caption className="visually-hidden">User colleges</caption>
              <thead>
                <tr>
                  <th scope="col">User ID</th>
                  <th scope="col">Colleges added</th>
                </tr>
              </thead>
              <tbody>
                {q.data.userColleges.map((u) => (
                  <tr key={u.userId}>
                    <td className="admin-mono">{u.userId}</td>
                    <td>{u.colleges.map((c) => c.collegeName).join(', ') || '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
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
    api<typeof adminProfileNotes>('GET', '/admin/profile-notes', {
      query: { filterUserId: f.debounced, offset: f.offset, limit: PAGE },
      signal,
    }),
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
          <div className="admin-table-wrap">
            <table className="admin-table">
              <caption className="visually-hidden">Profile notes</caption>
              <thead>
                <tr>
                  <th scope="col">User ID</th>
                  <th scope="col">Title</th>
                  <th scope="col">Content</th>
                  <th scope="col">Created At</th>
                </tr>
              </thead>
              <tbody>
                {q.data.profileNotes.flatMap((p) =>
                  p.notes.map((note, i) => (
                    <tr key={`${p.userId}-${i}`}>
                      <td className="admin-mono">{p.userId}</td>
                      <td>{note.title}</td>
                      <td className="admin-note">{note.content}</td>
                      <td>{formatDateTime(note.createdAt)}</td>
                    </tr>
                  )),
                )}
              </tbody>
            </table>
          </div>
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
