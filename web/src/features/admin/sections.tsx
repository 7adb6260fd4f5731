import { LIMITS } from '@ct/contracts/limits';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api/client';
import { AdminList } from './AdminList';
import { CollegeActions, useCollegeActions } from './CollegeReviewSection';
import { formatDateTime, QueryState } from './parts';
import { ADMIN_KEY, useAdminQuery } from './useAdminQuery';
import { ActionBanner } from '../../components/StatusBanner';

/** The note-read trail's queries' name: reading Profile Notes refreshes it. */
const NOTE_READS = 'note-reads';

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
  const [full, setFull] = useState(false);
  const actions = useCollegeActions();
  return (
    <AdminList
      name="colleges"
      fetch={({ filter, offset, limit }, signal) =>
        api.adminColleges({ name: filter, offset, limit, ...(full ? { full: true } : {}) }, { signal })
      }
      rows={(r) => r.colleges}
      filter={{ id: 'admin-colleges-filter', label: 'Filter colleges by name' }}
      params={[full]}
      controls={
        <button type="button" className="secondary" aria-pressed={full} onClick={() => setFull((x) => !x)}>
          {full ? 'Hide Full Data' : 'Show Full Data'}
        </button>
      }
      before={<ActionBanner banner={actions.banner} />}
      caption="Colleges"
      pagerLabel="Colleges"
      rowKey={(c) => String(c.id)}
      columns={[
        { header: 'Name', cell: (c) => c.name },
        { header: 'City', cell: (c) => c.city ?? '—' },
        { header: 'State', cell: (c) => c.state ?? '—' },
        { header: 'Created At', cell: (c) => formatDateTime(c.createdAt) },
        {
          header: 'Actions',
          cell: (c) => (
            <CollegeActions kind="shared" id={c.id} name={c.name} run={actions.run} busy={actions.busy} />
          ),
        },
      ]}
      after={(rows) =>
        full && (
          <pre className="admin-json" tabIndex={0} aria-label="Full data of the colleges on this page">
            {JSON.stringify(
              rows.map((r) => r.data ?? r),
              null,
              2,
            )}
          </pre>
        )
      }
    />
  );
}

export function StaffSection() {
  const [role, setRole] = useState('');
  return (
    <AdminList
      name="staff"
      fetch={({ filter, offset, limit }, signal) =>
        api.adminStaff({ filterUserId: filter, role: role || undefined, offset, limit }, { signal })
      }
      rows={(r) => r.staff}
      filter={{ id: 'admin-staff-filter', label: 'Filter staff by user id' }}
      params={[role]}
      resetOn={[role]}
      controls={
        <div className="field admin-filter">
          <label htmlFor="admin-staff-role">Role</label>
          <select id="admin-staff-role" value={role} onChange={(e) => setRole(e.target.value)}>
            <option value="">Any role</option>
            <option value="admin">admin</option>
            <option value="staff">staff</option>
          </select>
        </div>
      }
      caption="Staff members"
      pagerLabel="Staff"
      rowKey={(s) => s.userId}
      columns={[
        { header: 'User ID', cell: (s) => s.userId, className: 'admin-mono' },
        { header: 'Role', cell: (s) => s.role },
        { header: 'Email', cell: (s) => s.email ?? '—' },
      ]}
    />
  );
}

export function MajorCollegesSection() {
  return (
    <AdminList
      name="major-colleges"
      fetch={({ filter, offset, limit }, signal) =>
        api.adminMajorColleges({ name: filter, offset, limit }, { signal })
      }
      rows={(r) => r.majorColleges}
      filter={{ id: 'admin-majors-filter', label: 'Filter majors by name' }}
      caption="Major colleges"
      pagerLabel="Majors"
      rowKey={(m) => m.name}
      columns={[
        { header: 'Major', cell: (m) => m.name },
        { header: 'Associated colleges', cell: (m) => m.colleges.length },
        { header: 'Colleges', cell: (m) => m.colleges.join(', ') },
      ]}
    />
  );
}

export function UserCollegesSection() {
  return (
    <AdminList
      name="user-colleges"
      fetch={({ filter, offset, limit }, signal) =>
        api.adminUserColleges({ filterUserId: filter, offset, limit }, { signal })
      }
      rows={(r) => r.userColleges}
      filter={{ id: 'admin-user-colleges-filter', label: 'Filter by user id' }}
      caption="User colleges"
      pagerLabel="User colleges"
      rowKey={(u) => u.userId}
      columns={[
        { header: 'User ID', cell: (u) => u.userId, className: 'admin-mono' },
        { header: 'Colleges added', cell: (u) => u.colleges.map((c) => c.collegeName).join(', ') || '—' },
      ]}
    />
  );
}

export function ProfileNotesSection() {
  const queryClient = useQueryClient();
  return (
    <AdminList
      name="profile-notes"
      fetch={async ({ filter, offset, limit }, signal) => {
        const page = await api.adminProfileNotes({ filterUserId: filter, offset, limit }, { signal });
        // This read is now on the trail: Note Reads shows it without waiting for Refresh Data.
        void queryClient.invalidateQueries({ queryKey: [ADMIN_KEY, NOTE_READS] });
        return page;
      }}
      // One row per note; the pages count students.
      rows={(r) => r.profileNotes.flatMap((p) => p.notes.map((note, i) => ({ userId: p.userId, note, i })))}
      filter={{ id: 'admin-notes-filter', label: 'Filter notes by user id' }}
      caption="Profile notes"
      pagerLabel="Profile notes"
      rowKey={(r) => `${r.userId}-${r.i}`}
      columns={[
        { header: 'User ID', cell: (r) => r.userId, className: 'admin-mono' },
        { header: 'Title', cell: (r) => r.note.title },
        { header: 'Content', cell: (r) => r.note.content, className: 'admin-note' },
        { header: 'Created At', cell: (r) => formatDateTime(r.note.createdAt) },
      ]}
    />
  );
}

/**
 * The trail of admins' reads of students' notes (issue 20), newest first: every page of Profile Notes an
 * admin is shown records who read whose notes, how many, and when.
 */
export function NoteReadsSection() {
  return (
    <AdminList
      name={NOTE_READS}
      fetch={({ offset, limit }, signal) => api.adminNoteReads({ offset, limit }, { signal })}
      rows={(r) => r.noteReads}
      before={
        <p className="muted">
          Each time an admin is shown students&apos; notes (Profile Notes above), who read whose notes and
          when. Newest first. Each read is kept for {LIMITS.noteReadKeepDays} days with the reader&apos;s
          e-mail as it was then, whatever happens to the reader&apos;s account or role afterwards.
        </p>
      }
      empty="No admin has read a student's notes yet."
      caption="Reads of students' notes, newest first"
      pagerLabel="Note reads"
      rowKey={(r, i) => `${r.readAt}-${r.studentId}-${i}`}
      columns={[
        { header: 'Read At', cell: (r) => formatDateTime(r.readAt) },
        { header: 'Read By', cell: (r) => r.readerEmail ?? (r.readerId ? '—' : 'Deleted account') },
        {
          header: 'Admin ID',
          cell: (r) => r.readerId ?? 'Account deleted',
          className: 'admin-mono',
        },
        { header: 'Student ID', cell: (r) => r.studentId, className: 'admin-mono' },
        { header: 'Notes Read', cell: (r) => r.notes },
      ]}
    />
  );
}
