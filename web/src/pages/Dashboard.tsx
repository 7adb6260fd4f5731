import { MSG } from '@ct/contracts/messages';
import { useCallback, useEffect, useRef, useState } from 'react';
import { errorMessage } from '../api/client';
import { useSession } from '../auth/session';
import { LoadingOverlay } from '../components/LoadingOverlay';
import { ChecklistPanel, type Notify } from '../features/checklist/ChecklistPanel';
import { useRemoveCollege, useUserColleges } from '../features/dashboard/api';
import { CollegesSidebar } from '../features/dashboard/CollegesSidebar';
import { DemographicsPanel, ResourcesPanel } from '../features/dashboard/InfoPanels';
import { MajorStatsPanel } from '../features/majors/MajorStatsPanel';
import { CostPanel } from '../features/money/CostPanel';
import { RecommendersPanel } from '../features/recommenders/RecommendersPanel';
import { usePageMeta } from '../hooks/usePageMeta';
import '../features/dashboard/dashboard.css';

type Banner = { kind: 'success' | 'error'; text: string } | null;
const SUCCESS_BANNER_MS = 3000;

/**
 * /usercolleges: the "Your Colleges" sidebar and four panels for the selected college (resources and
 * demographics collapsed by default, the checklist with its progress, and major stats). No college is
 * selected at first; switching is blocked while the checklist is being edited.
 */
export default function DashboardPage() {
  usePageMeta(
    'Your Colleges',
    'Your colleges, each with its application checklist, resources, demographics and major stats.',
  );
  const { user } = useSession();
  const colleges = useUserColleges();
  const remove = useRemoveCollege();
  const [selected, setSelected] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);
  const [collapsed, setCollapsed] = useState(false);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [banner, setBanner] = useState<Banner>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const drawerToggle = useRef<HTMLButtonElement>(null);
  useEffect(() => () => clearTimeout(timer.current), []);

  const notify: Notify = useCallback((kind, text) => {
    clearTimeout(timer.current);
    setBanner({ kind, text });
    if (kind === 'success') timer.current = setTimeout(() => setBanner(null), SUCCESS_BANNER_MS);
  }, []);

  const closeDrawer = useCallback(() => {
    setDrawerOpen(false);
    drawerToggle.current?.focus();
  }, []);

  const select = (name: string) => {
    if (name === selected) {
      setDrawerOpen(false);
      return;
    }
    if (editing) {
      notify('error', MSG.cannotSwitchInEdit);
      return;
    }
    setBanner(null);
    setSelected(name);
    setDrawerOpen(false);
  };

  const removeCollege = async (name: string) => {
    if (!user) {
      notify('error', MSG.userNotAuthenticated);
      return;
    }
    try {
      await remove.mutateAsync(name);
      if (selected === name) {
        setSelected(null);
        setEditing(false);
      }
      notify('success', MSG.collegeRemoved);
    } catch (err) {
      notify('error', errorMessage(err));
    }
  };

  if (colleges.isPending) return <LoadingOverlay />;

  return (
    <section className="page dashboard-page">
      <div className="dashboard-title">
        <h1>Your Colleges</h1>
        <button
          ref={drawerToggle}
          type="button"
          className="secondary drawer-toggle"
          aria-expanded={drawerOpen}
          aria-controls="your-colleges"
          onClick={() => setDrawerOpen(true)}
        >
          <span aria-hidden="true">☰</span> Open Your Colleges
        </button>
      </div>
      {banner ? (
        <div
          className={`banner ${banner.kind} dashboard-banner`}
          role={banner.kind === 'error' ? 'alert' : 'status'}
        >
          <span>{banner.text}</span>
          <button type="button" className="link" onClick={() => setBanner(null)}>
            Dismiss
          </button>
        </div>
      ) : null}
      {colleges.isError ? (
        <p className="banner error" role="alert">
          {errorMessage(colleges.error)}
        </p>
      ) : null}
      <div className={`dashboard-layout${collapsed ? ' sidebar-collapsed' : ''}`}>
        <CollegesSidebar
          colleges={colleges.data ?? []}
          selected={selected}
          onSelect={select}
          onRemove={(name) => void removeCollege(name)}
          removing={remove.isPending ? (remove.variables ?? null) : null}
          collapsed={collapsed}
          onToggleCollapsed={() => setCollapsed((c) => !c)}
          drawerOpen={drawerOpen}
          onCloseDrawer={closeDrawer}
        />
        <div className="dashboard-panels">
          <CostPanel collegeName={selected} />
          <ResourcesPanel collegeName={selected} />
          <DemographicsPanel collegeName={selected} />
          <ChecklistPanel
            collegeName={selected}
            editing={editing}
            onEditingChange={setEditing}
            notify={notify}
          />
          <RecommendersPanel collegeName={selected} />
          <MajorStatsPanel collegeName={selected} />
        </div>
      </div>
    </section>
  );
}
