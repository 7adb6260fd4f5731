import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';

/** What the student tried to do while the guard held: follow a link, or move through the history. */
type Held = { kind: 'link'; to: string } | { kind: 'history'; delta: number };

/** The position React Router keeps in each history entry it writes (absent on entries it did not write). */
function historyIndex(state: unknown): number | null {
  const idx = (state as { idx?: unknown } | null)?.idx;
  return typeof idx === 'number' ? idx : null;
}

/** The path and query of a URL: moving within a page (its #hash) never loses the work. */
const pageOf = (url: URL | Location) => `${url.pathname}${url.search}`;

/** The in-app link a click follows, or null when the browser or another handler deals with it. */
function linkOf(e: MouseEvent): URL | null {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return null;
  const a = e.target instanceof Element ? e.target.closest('a[href]') : null;
  if (!(a instanceof HTMLAnchorElement) || a.hasAttribute('download')) return null;
  if (a.target && a.target !== '_self') return null;
  const url = new URL(a.href, window.location.href);
  return url.origin === window.location.origin ? url : null;
}

/** The mounted guard's handler for a history move, called before React Router's. */
let onHistoryMove: ((e: PopStateEvent) => void) | null = null;
let installed = false;

/**
 * Listens to the browser's Back and Forward ahead of React Router. Called before the router mounts:
 * listeners on `window` run in the order they were added, and the router re-renders (and so unmounts a
 * page's guard) while handling the move, so a guard added by the page itself would come too late.
 */
export function installLeaveGuard(): void {
  if (installed) return;
  installed = true;
  window.addEventListener('popstate', (e) => onHistoryMove?.(e), true);
}

/**
 * Holds the student on the page while `dirty`: an in-app link that would open another page (another
 * path or query), or the browser's Back and Forward, asks first instead of losing unsaved work, and
 * closing or reloading the tab gets the browser's own warning. Made for the declarative router, which
 * has no `useBlocker`: a link's click is caught before React sees it, and a history move is undone at
 * once (React Router never learns of it), then redone if the student chooses to leave. No history entry
 * is ever added, so nothing is left behind once the work is saved or dropped.
 *
 * `asking` is true while the question is open; `leave()` goes where the student meant to, `stay()` keeps
 * the page and the work.
 */
export function useLeaveGuard(dirty: boolean): { asking: boolean; leave(): void; stay(): void } {
  const navigate = useNavigate();
  const location = useLocation();
  const [held, setHeld] = useState<Held | null>(null);
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;
  const heldRef = useRef(held);
  heldRef.current = held;
  /** The history position of the page shown, as React Router last moved to it. */
  const shownIndex = useRef<number | null>(null);
  const shownPage = useRef(pageOf(window.location));
  /** A history move the guard itself started: undoing the student's (true), or leaving for them. */
  const undoing = useRef(false);
  const leaving = useRef(false);
  /** The move being undone, asked about once the page shown is back. */
  const asked = useRef<number | null>(null);

  useEffect(() => {
    shownIndex.current = historyIndex(window.history.state) ?? shownIndex.current;
    shownPage.current = `${location.pathname}${location.search}`;
  }, [location]);

  useEffect(() => {
    const onClick = (e: MouseEvent) => {
      if (!dirtyRef.current) return;
      const url = linkOf(e);
      if (!url || pageOf(url) === pageOf(window.location)) return;
      // Caught on the way down, so neither the router's link nor the browser follows it.
      e.preventDefault();
      e.stopPropagation();
      if (!heldRef.current) setHeld({ kind: 'link', to: `${url.pathname}${url.search}${url.hash}` });
    };
    // Runs before React Router's own listener (see installLeaveGuard), so the router only ever sees the
    // moves that are let through.
    const onPopState = (e: PopStateEvent) => {
      if (leaving.current) {
        leaving.current = false;
        return;
      }
      const shown = shownIndex.current;
      const landed = historyIndex(e.state);
      if (undoing.current) {
        // Our own step back to the page shown (or any further move before it landed): never the router's.
        e.stopImmediatePropagation();
        if (landed !== shown) {
          if (landed !== null && shown !== null) window.history.go(shown - landed);
          return;
        }
        undoing.current = false;
        const delta = asked.current;
        asked.current = null;
        // Asked only now, with the address back to the page shown.
        if (delta !== null && !heldRef.current) setHeld({ kind: 'history', delta });
        return;
      }
      if (!dirtyRef.current || shown === null || landed === null || landed === shown) return;
      if (pageOf(window.location) === shownPage.current) return;
      e.stopImmediatePropagation();
      undoing.current = true;
      asked.current = landed - shown;
      window.history.go(shown - landed);
    };
    installLeaveGuard();
    window.addEventListener('click', onClick, true);
    onHistoryMove = onPopState;
    return () => {
      window.removeEventListener('click', onClick, true);
      if (onHistoryMove === onPopState) onHistoryMove = null;
    };
  }, []);

  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  // Saved or dropped meanwhile: nothing to ask any more.
  useEffect(() => {
    if (!dirty) setHeld(null);
  }, [dirty]);

  const leave = useCallback(() => {
    const h = heldRef.current;
    setHeld(null);
    if (!h) return;
    if (h.kind === 'link') {
      void navigate(h.to);
      return;
    }
    leaving.current = true;
    window.history.go(h.delta);
  }, [navigate]);
  const stay = useCallback(() => setHeld(null), []);

  return { asking: held !== null, leave, stay };
}
