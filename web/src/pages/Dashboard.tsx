import { MSG } from '@ct/contracts/messages';
import { LIMITS } from '@ct/contracts/limits';
import { useCallback, useDeferredValue, useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { errorMessage } from '../api/client';
import { useSession } from '../auth/session';
import { LoadError } from '../components/LoadError';
import { LoadingOverlay } from '../components/LoadingOverlay';
import { ChecklistPanel, type Notify } from '../features/checklist/ChecklistPanel';
import { useAddCollege, useRemoveCollege, useResourcesDemographics, useUserColleges } from '../api/student';
import { useChecklist } from '../features/checklist/api';
import { useStudentProfile } from '../features/money/api';
import { CollegesSidebar } from '../features/dashboard/CollegesSidebar';
import { ListControls } from '../features/list-view/ListControls';
import { applyListView, isFiltered, readListView } from '../features/list-view/listView';
import { useListFacts } from '../features/list-view/useListFacts';
import { DemographicsPanel, ResourcesPanel } from '../features/dashboard/InfoPanels';
import { MajorStatsPanel } from '../features/majors/MajorStatsPanel';
import { CostPanel } from '../features/money/CostPanel';
import { RecommendersPanel } from '../features/recommenders/RecommendersPanel';
import { SeasonOverview, usePrefetchOverview } from '../features/season/SeasonOverview';
import { usePageMeta } from '../hooks/usePageMeta';
import '../features/dashboard/dashboard.css';
import { type Banner, StatusBanner } from '../components/StatusBanner';

/** The college just removed (Undo adds it back with its progress), or the one Undo brought back. */
type Removal = { name: string; wasSelected: boolean; state: 'removed' | 'undoing' | 'restored' } | null;
const SUCCESS_BANNER_MS = 3000;

/** Whether a query is on its way to its first answer (not waiting for the network, not failed). */
const arriving = (q: { isPending: boolean; fetchStatus: string }) =>
  q.isPending && q.fetchStatus === 'fetching';

/**
 * /usercolleges: the "Your Colleges" sidebar and four panels for the selected college (resources and
 * demographics collapsed by default, the checklist with its progress, and major stats). No college is
 * selected at first, and then the season overview shows every college at a glance; the selection lives in the URL (`?college=`), so back and forward move between
 * colleges. Switching is blocked while the checklist is being edited. A removed college can be brought
 * back with Undo (the server keeps its progress for 30 days). A failed load says so, with Retry, and never
 * reads as an empty list.
 */
export default function DashboardPage() {
  usePageMeta(
    'Your Colleges',
    'Your colleges, each with its application checklist, resources, demographics and major stats.',
  );
  const { user } = useSession();
  // The list's answers redraw the whole page (the sidebar, and the season overview with its dozen
  // queries): as a deferred update, in short slices, so a slow phone is never blocked by one long task.
  const colleges = useDeferredValue(useUserColleges());
  const remove = useRemoveCollege();
  const restore = useAddCollege();
  const [params, setParams] = useSearchParams();
  const asked = params.get('college');
  // Filter and order of the list (`?q=&status=&sort=`), shared by the sidebar and the season overview.
  const listView = readListView(params);
  const factsOf = useListFacts(
    (colleges.data ?? []).map((c) => c.collegeName),
    listView.status !== '' || ['deadline', 'status', 'fit'].includes(listView.sort),
    listView.sort === 'fit',
  );
  const selected = asked && colleges.data?.some((c) => c.collegeName === asked) ? asked : null;
  // The college's first screen, its cost and its checklist with its dates, is drawn in one go once their
  // answers are in (asked for together): drawn as each came, the later one would push the other down
  // under the student's thumb. An answer that cannot come yet (offline, failed) does not hold it: each
  // panel then says so itself. Once seen, the device's copy draws at once.
  const checklist = useChecklist(selected);
  const costs = useResourcesDemographics(selected);
  const money = useStudentProfile();
  // Held once per college shown: a panel asking again later (Retry) must not take the others away.
  const [drawnFor, setDrawnFor] = useState<string | null>(null);
  const panelsArriving =
    !!selected && drawnFor !== selected && (arriving(checklist) || arriving(costs) || arriving(money));
  if (selected && !panelsArriving && drawnFor !== selected) setDrawnFor(selected);
  // With no college asked for, the season overview shows: its data comes beside the list.
  usePrefetchOverview(!asked);
  const [editing, setEditing] = useState(false);
  const [collapsed, setCollapsed] = useState(false);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [banner, setBanner] = useState<Banner>(null);
  const [removal, setRemoval] = useState<Removal>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const drawerToggle = useRef<HTMLButtonElement>(null);
  const toast = useRef<HTMLDivElement>(null);
  useEffect(() => () => clearTimeout(timer.current), []);
  // Another college (back or forward in the browser) leaves edit mode: its checklist has no copy.
  useEffect(() => setEditing(false), [selected]);

  const notify: Notify = useCallback((kind, text) => {
    clearTimeout(timer.current);
    setBanner({ kind, text });
    if (kind === 'success') timer.current = setTimeout(() => setBanner(null), SUCCESS_BANNER_MS);
  }, []);

  const closeDrawer = useCallback(() => {
    setDrawerOpen(false);
    drawerToggle.current?.focus();
  }, []);

  const choose = (name: string | null, how: 'push' | 'replace' = 'push') =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        if (name) next.set('college', name);
        else next.delete('college');
        return next;
      },
      { replace: how === 'replace' },
    );

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
    choose(name);
    setDrawerOpen(false);
  };

  const removeCollege = async (name: string) => {
    if (!user) {
      notify('error', MSG.userNotAuthenticated);
      return;
    }
    if (editing && name === selected) {
      notify('error', 'Save or cancel your checklist changes before removing this college.');
      return;
    }
    try {
      await remove.mutateAsync(name);
      const wasSelected = selected === name;
      if (wasSelected) {
        choose(null, 'replace');
        setEditing(false);
      }
      setBanner(null);
      setRemoval({ name, wasSelected, state: 'removed' });
    } catch (err) {
      notify('error', errorMessage(err));
    }
  };

  const undo = async () => {
    if (!removal || removal.state !== 'removed') return;
    setRemoval({ ...removal, state: 'undoing' });
    try {
      await restore.mutateAsync(removal.name);
      if (removal.wasSelected && !editing) choose(removal.name, 'replace');
      setRemoval({ ...removal, state: 'restored' });
    } catch (err) {
      setRemoval({ ...removal, state: 'removed' });
      notify('error', errorMessage(err));
    }
  };

  if (colleges.isPending) return <LoadingOverlay />;
  const listedNames = (colleges.data ?? []).map((c) => c.collegeName);
  const all = colleges.data ?? [];
  const shown =
    isFiltered(listView) || listView.sort !== 'list'
      ? applyListView(
          all,
          listView,
          (c) => c.collegeName,
          (c) => factsOf(c.collegeName),
        )
      : all;
  const loadFailed = colleges.isError;

  return (
    <section className="page dashboard-page">
      {/* The checklist sits after the list and the costs: one Tab from the top reaches its first box. */}
      {selected ? (
        <a
          className="skip-link"
          href="#checklist"
          onClick={(e) => {
            const panel = document.getElementById('checklist');
            if (!panel) return;
            e.preventDefault();
            const first = panel.querySelector<HTMLElement>('input[type="checkbox"]');
            if (first) first.focus();
            else {
              panel.tabIndex = -1;
              panel.focus();
            }
          }}
        >
          Skip to checklist
        </a>
      ) : null}
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
      {all.length ? (
        <p className="students-like-you-link">
          <Link to="/students-like-you">Students like you</Link>: how often students in your situation finish
          at each of your colleges.
        </p>
      ) : null}
      {banner ? (
        <StatusBanner kind={banner.kind} as="div" className="dashboard-banner">
          <span>{banner.text}</span>
          <button type="button" className="link" onClick={() => setBanner(null)}>
            Dismiss
          </button>
        </StatusBanner>
      ) : null}
      {loadFailed ? (
        <LoadError
          what={`Your colleges could not be loaded${colleges.data ? ' (the list below may be out of date)' : ''}.`}
          error={colleges.error}
          retrying={colleges.isFetching}
          onRetry={() => void colleges.refetch()}
        />
      ) : null}
      <div className={`dashboard-layout${collapsed ? ' sidebar-collapsed' : ''}`}>
        <CollegesSidebar
          colleges={all}
          shown={shown}
          controls={
            // Without a college selected the season overview carries the same controls, beside the list.
            all.length > 1 && (selected || drawerOpen) ? (
              <ListControls idPrefix="sidebar-list" shown={shown.length} total={all.length} />
            ) : null
          }
          failed={loadFailed && !colleges.data}
          selected={selected}
          onSelect={select}
          onRemove={(name) => void removeCollege(name)}
          removing={remove.isPending ? (remove.variables ?? null) : null}
          collapsed={collapsed}
          onToggleCollapsed={() => setCollapsed((c) => !c)}
          drawerOpen={drawerOpen}
          onCloseDrawer={closeDrawer}
          alsoTrapIn={() => toast.current}
        />
        {/* No college selected (the spec's starting state): the whole season at a glance. */}
        {panelsArriving ? (
          <div className="dashboard-panels">
            <section className="card dashboard-panel panels-arriving" role="status" aria-live="polite">
              <p className="muted">Loading {selected}...</p>
            </section>
          </div>
        ) : selected ? (
          <>
            {/* Two columns that each keep their own height: opening one panel never leaves a gap beside it. */}
            <div className="dashboard-panels">
              <div className="dashboard-column main">
                <CostPanel collegeName={selected} />
                <ChecklistPanel
                  collegeName={selected}
                  editing={editing}
                  onEditingChange={setEditing}
                  notify={notify}
                />
                <RecommendersPanel collegeName={selected} />
                <MajorStatsPanel collegeName={selected} />
              </div>
              <div className="dashboard-column info">
                <ResourcesPanel collegeName={selected} />
                <DemographicsPanel collegeName={selected} />
              </div>
            </div>
          </>
        ) : (
          <SeasonOverview listed={listedNames} onSelect={select} />
        )}
      </div>
      <div ref={toast} className="toast-region" role="status" aria-live="polite">
        {removal ? (
          <div className="toast">
            <p>
              {removal.state === 'restored' ? (
                <>
                  <strong>{removal.name}</strong> is back on your list, with its checklist progress.
                </>
              ) : (
                <>
                  {MSG.collegeRemoved}: <strong>{removal.name}</strong>. Its checklist progress is kept for{' '}
                  {LIMITS.removedCollegeKeepDays} days.
                </>
              )}
            </p>
            <div className="toast-actions">
              {removal.state === 'restored' ? null : (
                <button
                  type="button"
                  className="small"
                  disabled={removal.state === 'undoing'}
                  onClick={() => void undo()}
                >
                  {removal.state === 'undoing' ? 'Undoing...' : 'Undo'}
                  <span className="visually-hidden"> removing {removal.name}</span>
                </button>
              )}
              <button type="button" className="link" onClick={() => setRemoval(null)}>
                Dismiss
              </button>
            </div>
          </div>
        ) : null}
      </div>
    </section>
  );
}
