import { useEffect, useRef } from 'react';

const FOCUSABLE = [
  'a[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  '[tabindex]:not([tabindex="-1"])',
].join(',');

const shown = (el: HTMLElement) =>
  el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';

/** The focusable elements of `roots` (a root may itself be one) that are on screen, in page order. */
function focusables(roots: ReadonlyArray<HTMLElement | null>): HTMLElement[] {
  return roots
    .flatMap((r) =>
      r ? [...(r.matches(FOCUSABLE) ? [r] : []), ...r.querySelectorAll<HTMLElement>(FOCUSABLE)] : [],
    )
    .filter(shown)
    .sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
}

/**
 * Keeps keyboard focus inside an open overlay (a menu or a drawer, WCAG 2.4.3): Tab and Shift+Tab wrap
 * round the focusable elements of `roots`, focus that lands outside is brought back, and Escape calls
 * `onEscape` (which closes the overlay and returns focus to its opener).
 */
export function useFocusTrap(
  active: boolean,
  roots: () => ReadonlyArray<HTMLElement | null>,
  onEscape: () => void,
): void {
  // The latest callbacks, without re-installing the listeners on every render.
  const latest = useRef({ roots, onEscape });
  useEffect(() => {
    latest.current = { roots, onEscape };
  });

  useEffect(() => {
    if (!active) return;
    const stop = () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('focusin', onFocusIn);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        // Let focus go back to the opener, outside the trap.
        stop();
        latest.current.onEscape();
        return;
      }
      if (e.key !== 'Tab') return;
      // Every Tab is moved by hand: the roots need not be next to each other in the page.
      const list = focusables(latest.current.roots());
      if (!list.length) return;
      e.preventDefault();
      const at = list.indexOf(document.activeElement as HTMLElement);
      const step = e.shiftKey ? -1 : 1;
      const next = at < 0 ? (e.shiftKey ? list.length - 1 : 0) : (at + step + list.length) % list.length;
      list[next]!.focus();
    };
    const onFocusIn = (e: FocusEvent) => {
      const roots = latest.current.roots();
      if (roots.some((r) => r?.contains(e.target as Node))) return;
      focusables(roots)[0]?.focus();
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('focusin', onFocusIn);
    return stop;
  }, [active]);
}
