import type { UserCollege } from '@ct/contracts';
import { MSG } from '@ct/contracts/messages';
import { useEffect, useRef, type ReactNode } from 'react';
import { useFocusTrap } from '../../hooks/useFocusTrap';
import { ListProgressChart } from '../charts';

/**
 * "Your Colleges": the student's list, each removable. Collapsible on wide screens; on small screens it is a
 * slide-in drawer that keeps focus inside while open (Escape or the close button shuts it and focus goes
 * back to the opener; focus moves into it when it opens). When the list could not be loaded it says so
 * instead of showing the empty state.
 */
export function CollegesSidebar({
  colleges,
  shown = colleges,
  controls = null,
  failed = false,
  selected,
  onSelect,
  onRemove,
  removing,
  collapsed,
  onToggleCollapsed,
  drawerOpen,
  onCloseDrawer,
  alsoTrapIn,
}: {
  colleges: readonly UserCollege[];
  /** The list as filtered and sorted by the student's choices (all of it by default). */
  shown?: readonly UserCollege[];
  /** The filter and sort controls, above the list. */
  controls?: ReactNode;
  failed?: boolean;
  selected: string | null;
  onSelect(name: string): void;
  onRemove(name: string): void;
  removing: string | null;
  collapsed: boolean;
  onToggleCollapsed(): void;
  drawerOpen: boolean;
  onCloseDrawer(): void;
  /** Another element that belongs with the open drawer (the Undo message). */
  alsoTrapIn?: () => HTMLElement | null;
}) {
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    if (drawerOpen) ref.current?.querySelector<HTMLElement>('.sidebar-list button, .drawer-close')?.focus();
  }, [drawerOpen]);
  useFocusTrap(drawerOpen, () => [ref.current, alsoTrapIn?.() ?? null], onCloseDrawer);

  return (
    <>
      {drawerOpen ? <div className="drawer-backdrop" onClick={onCloseDrawer} aria-hidden="true" /> : null}
      <aside
        ref={ref}
        id="your-colleges"
        className={`colleges-sidebar card${collapsed ? ' collapsed' : ''}${drawerOpen ? ' drawer-open' : ''}`}
        aria-labelledby="your-colleges-title"
      >
        <div className="sidebar-head">
          <h2 id="your-colleges-title">Your Colleges</h2>
          <button
            type="button"
            className="secondary small sidebar-collapse"
            aria-expanded={!collapsed}
            aria-controls="your-colleges-list"
            onClick={onToggleCollapsed}
          >
            {collapsed ? 'Expand' : 'Collapse'}
            <span className="visually-hidden"> Your Colleges</span>
          </button>
          <button type="button" className="secondary small drawer-close" onClick={onCloseDrawer}>
            Close<span className="visually-hidden"> Your Colleges</span>
          </button>
        </div>
        <div id="your-colleges-list" className="sidebar-body" hidden={collapsed && !drawerOpen}>
          {failed ? (
            <p className="muted">Your colleges could not be loaded.</p>
          ) : colleges.length === 0 ? (
            <p className="muted">{MSG.noCollegesAdded}</p>
          ) : (
            <>
              {controls}
              {shown.length === 0 ? <p className="muted">No college matches these filters.</p> : null}
              <ul className="sidebar-list">
                {shown.map((c) => {
                  const active = c.collegeName === selected;
                  return (
                    <li key={c.collegeId} className={active ? 'active' : undefined}>
                      <button
                        type="button"
                        className="college-select"
                        aria-pressed={active}
                        onClick={() => onSelect(c.collegeName)}
                      >
                        {c.collegeName}
                      </button>
                      <button
                        type="button"
                        className="college-remove"
                        aria-label={`Remove ${c.collegeName}`}
                        title={`Remove ${c.collegeName}`}
                        disabled={removing === c.collegeName}
                        onClick={() => onRemove(c.collegeName)}
                      >
                        <span aria-hidden="true">✕</span>
                      </button>
                    </li>
                  );
                })}
              </ul>
            </>
          )}
          {!failed && colleges.length ? (
            <div className="sidebar-progress">
              <ListProgressChart colleges={colleges} />
            </div>
          ) : null}
        </div>
      </aside>
    </>
  );
}
