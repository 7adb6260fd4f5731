import { useEffect } from 'react';
import { useLocation } from 'react-router';

/** Navigation state that asks the next page to take focus on its heading (after signing in). */
export const FOCUS_HEADING = { focusHeading: true } as const;

const wantsFocus = (state: unknown) =>
  typeof state === 'object' && state !== null && (state as { focusHeading?: unknown }).focusHeading === true;

/** Stop waiting for a page's heading after this long (its chunk or data never came). */
const GIVE_UP_MS = 10_000;

/**
 * After a navigation that carries FOCUS_HEADING (signing in), focus moves to the new page's h1 once it is
 * drawn, not left on the page body: a keyboard or screen-reader user starts where the page does. The page
 * comes in its own chunk, so the heading is waited for (for at most GIVE_UP_MS).
 */
export function useArrivalFocus(): void {
  const location = useLocation();
  const focus = wantsFocus(location.state);
  useEffect(() => {
    if (!focus) return;
    const main = document.getElementById('main');
    if (!main) return;
    // Focus goes to the h1 while nothing else has it: a page drawn in steps (the signed-out page still on
    // screen while the next one's chunk loads, then a loading line) gets it again once it is replaced,
    // and a student who has already moved on is left where they are.
    const tryFocus = () => {
      const active = document.activeElement;
      if (active && active !== document.body && active !== main && active.tagName !== 'H1') return;
      const h1 = main.querySelector('h1');
      if (!h1 || h1 === active) return;
      if (!h1.hasAttribute('tabindex')) h1.setAttribute('tabindex', '-1');
      h1.focus();
    };
    tryFocus();
    const watch = new MutationObserver(tryFocus);
    watch.observe(main, { childList: true, subtree: true });
    const stop = setTimeout(() => watch.disconnect(), GIVE_UP_MS);
    return () => {
      watch.disconnect();
      clearTimeout(stop);
    };
  }, [focus, location.key]);
}
