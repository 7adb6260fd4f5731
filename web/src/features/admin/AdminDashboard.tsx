import { MSG } from '@ct/contracts/messages';
import { useIsFetching, useQuery, useQueryClient } from '@tanstack/react-query';
import { Navigate } from 'react-router';
import { api } from '../../api/client';
import { useSession } from '../../auth/session';
import { CollegeReviewSection } from './CollegeReviewSection';
import { FactReviewSection } from './FactReviewSection';
import { IngestionSection } from './IngestionSection';
import { Section } from './parts';
import { QueueDashboardButton } from './QueueDashboardButton';
import {
  CollegesSection,
  MajorCollegesSection,
  MetricsSection,
  NoteReadsSection,
  ProfileNotesSection,
  StaffSection,
  UserCollegesSection,
} from './sections';
import { ADMIN_KEY } from './useAdminQuery';
import './admin.css';

/**
 * Waits for the session and the role lookup, then shows the dashboard to admins and sends everyone
 * else to `/`. The server refuses non-admins on every admin call anyway; this only spares them the page.
 */
export function AdminGate() {
  const { user, loading, isAdmin } = useSession();
  // The session's isAdmin is false both while its lookup runs and after it failed, so ask once more
  // here to tell "not yet" from "no".
  const role = useQuery({
    queryKey: ['staff-role', user?.uid],
    enabled: !!user && !isAdmin,
    retry: false,
    queryFn: ({ signal }) => api.getStaffRoles({ userId: user!.uid }, { signal }),
  });
  if (loading)
    return (
      <p className="muted" role="status">
        {MSG.loading}
      </p>
    );
  if (!user) return <Navigate to="/" replace />;
  if (isAdmin || role.data?.data === 'admin') return <AdminDashboard />;
  if (role.isPending)
    return (
      <p className="muted" role="status">
        {MSG.loading}
      </p>
    );
  if (role.error) console.info('role lookup:', role.error.message);
  return <Navigate to="/" replace />;
}

function AdminDashboard() {
  const queryClient = useQueryClient();
  const fetching = useIsFetching({ queryKey: [ADMIN_KEY] });
  return (
    <div className="admin">
      <div className="admin-head">
        <h1>{MSG.welcomeAdmin}</h1>
        <div className="admin-actions">
          <QueueDashboardButton />
          <button
            type="button"
            aria-busy={fetching > 0}
            onClick={() => void queryClient.invalidateQueries({ queryKey: [ADMIN_KEY] })}
          >
            Refresh Data
          </button>
        </div>
      </div>
      <p className="muted">
        Views of the product&apos;s data. The changes you can make here: retry a failed ingestion, approve,
        merge or delete colleges, and approve or drop unverified facts.
      </p>
      <Section id="admin-metrics" title="Dashboard Metrics">
        <MetricsSection />
      </Section>
      <Section id="admin-colleges" title="Colleges">
        <CollegesSection />
      </Section>
      <Section id="admin-college-review" title="College Review">
        <CollegeReviewSection />
      </Section>
      <Section id="admin-fact-review" title="Fact Review">
        <FactReviewSection />
      </Section>
      <Section id="admin-staff" title="Staff Members">
        <StaffSection />
      </Section>
      <Section id="admin-major-colleges" title="Major Colleges">
        <MajorCollegesSection />
      </Section>
      <Section id="admin-user-colleges" title="User Colleges">
        <UserCollegesSection />
      </Section>
      <Section id="admin-profile-notes" title="Profile Notes">
        <ProfileNotesSection />
      </Section>
      <Section id="admin-note-reads" title="Note Reads">
        <NoteReadsSection />
      </Section>
      <Section id="admin-ingestion" title="Ingestion">
        <IngestionSection />
      </Section>
    </div>
  );
}
