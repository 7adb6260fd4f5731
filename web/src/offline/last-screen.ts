/**
 * The last screen a student saw of each signed-in page, kept on this device (localStorage, read without
 * waiting) so that coming back draws it before the app's script has started: on a phone, starting React
 * and drawing the page from the device's data takes about a second, and the student would otherwise look
 * at an empty header meanwhile. The copy is inert (nothing in it can be clicked or focused) and the app
 * replaces it with the live page, drawn from the same data, as soon as it can.
 *
 * It is the screen as the student last saw it, so it holds what the device's data holds, and is forgotten
 * with it: at sign-out, at account deletion, and when Retry drops the device's copy. It is kept for one
 * student at a time, and drawn only for the very address it was taken at.
 *
 * This module is read by `paint-last-screen.ts` before React loads: it imports nothing that runs but the
 * sanitiser.
 *
 * What is kept is read back as data, never as markup the page trusts (issue 50.3): anything else on the
 * device could have written that storage key, so the screen is parsed by DOMPurify, a maintained
 * sanitiser, into inert nodes with no script, event handler, `javascript:` address, frame or form
 * action left in them, and only then placed in the page.
 */
import type { QueryClient } from '@tanstack/react-query';
import DOMPurify from 'dompurify';
import { DEVICE_MAX_AGE_MS } from './kept-for';

const LAST_SCREEN_KEY = 'college-ready:last-screen';
const VERSION = 1;
/**
 * The build the screens were taken with: this module's own address, which names the entry chunk and
 * changes with every build. A screen of an earlier version of the app is not drawn by a later one (its
 * markup may not be what the new stylesheet and pages expect).
 */
const BUILD = import.meta.url;

/** The pages whose last screen is kept: the signed-in ones that draw the student's data. */
// Not /search: what it shows is the search of the moment, which the page does not draw again.
const KEPT_PATHS = new Set(['/usercolleges', '/essays', '/essay-prompts', '/profile']);
const MAX_SCREENS = 8;
/** Characters kept in all (localStorage holds about five million per site). */
const MAX_CHARS = 1_500_000;
/** A screen is taken this long after the data last changed, when the tab is in view, and as it is hidden. */
const TAKE_AFTER_MS = 1_000;

/** What a screen drawn from the device is marked with: the copy's wrapper, removed by the app's render. */
const LAST_SCREEN_ATTR = 'data-last-screen';

/** Not kept: what belongs to the moment, not to the page (dialogs, the offline and update bars). */
const NOT_KEPT = 'dialog, [role="dialog"], [role="alertdialog"], .offline-banner, .pwa-bar';
/** Not kept either: a page still loading, or one that failed. */
const NOT_READY = '.loading-overlay, .panels-arriving, .problem-page';

interface Screen {
  html: string;
  savedAt: number;
}
interface Saved {
  v: number;
  build: string;
  uid: string;
  screens: Record<string, Screen>;
}

const here = () => `${location.pathname}${location.search}`;

function read(): Saved | null {
  try {
    const raw = localStorage.getItem(LAST_SCREEN_KEY);
    if (!raw) return null;
    const saved = JSON.parse(raw) as Saved;
    return saved?.v === VERSION && saved.build === BUILD && typeof saved.uid === 'string' && saved.screens
      ? saved
      : null;
  } catch {
    return null;
  }
}

/**
 * Draws the screen kept for this address into the page's root, inert, if there is one and the app has
 * not drawn yet. Returns whose screen it drew (their uid), or null.
 */
export function paintLastScreen(): string | null {
  const root = document.getElementById('root');
  const saved = read();
  const screen = saved?.screens[here()];
  if (!root || !saved || !screen || Date.now() - screen.savedAt > DEVICE_MAX_AGE_MS) return null;
  // Only over the header index.html draws: never over the app.
  if (root.children.length !== 1 || !root.firstElementChild?.matches('header.navbar')) return null;
  const copy = document.createElement('div');
  copy.setAttribute(LAST_SCREEN_ATTR, '');
  copy.inert = true;
  // Not the page yet, for assistive technology either (inert says so too, where it is known).
  copy.setAttribute('aria-hidden', 'true');
  // Laid out as if its children were the root's own, as the app's are.
  copy.style.display = 'contents';
  copy.replaceChildren(sanitisedScreen(screen.html));
  placeholder = root.firstElementChild;
  root.replaceChildren(copy);
  return saved.uid;
}

/** Markup kept on the device as nodes that can show and do nothing else (see the module's comment). */
export function sanitisedScreen(html: string): DocumentFragment {
  return DOMPurify.sanitize(html, {
    RETURN_DOM_FRAGMENT: true,
    FORBID_TAGS: ['style', 'base', 'meta', 'link'],
    FORBID_ATTR: ['action', 'formaction', 'srcset'],
  });
}

/** The header index.html draws, while a kept screen is on show in its place. */
let placeholder: Element | null = null;

/** Puts back index.html's header alone, when the screen on show is not the signed-in student's (main.tsx). */
export function dropLastScreen(): void {
  const copy = document.querySelector(`[${LAST_SCREEN_ATTR}]`);
  if (copy && placeholder) copy.replaceWith(placeholder);
  placeholder = null;
}

/** Forgets every kept screen (sign-out, account deletion, Retry). */
export function forgetLastScreens(): void {
  try {
    localStorage.removeItem(LAST_SCREEN_KEY);
  } catch {
    // nothing kept, or storage unavailable: nothing to forget
  }
}

/** The page's root as markup, with what the DOM keeps only in properties (ticks, typed text) written in. */
function serialise(root: HTMLElement): string {
  const copy = root.cloneNode(true) as HTMLElement;
  const fields = 'input, textarea, select';
  const live = root.querySelectorAll<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>(fields);
  const kept = copy.querySelectorAll<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>(fields);
  live.forEach((field, i) => {
    const out = kept[i]!;
    if (field instanceof HTMLInputElement) {
      if (field.type === 'checkbox' || field.type === 'radio') out.toggleAttribute('checked', field.checked);
      else if (field.type === 'password') out.removeAttribute('value');
      else out.setAttribute('value', field.value);
    } else if (field instanceof HTMLTextAreaElement) out.textContent = field.value;
    else
      [...field.options].forEach((o, j) =>
        (out as HTMLSelectElement).options[j]?.toggleAttribute('selected', o.selected),
      );
  });
  copy.querySelectorAll(NOT_KEPT).forEach((e) => e.remove());
  return copy.innerHTML;
}

/** Keeps this page's screen as the student sees it now, if it is a page that is kept and it is drawn. */
function takeLastScreen(uid: string): void {
  const root = document.getElementById('root');
  if (!root || !KEPT_PATHS.has(location.pathname)) return;
  if (root.querySelector(`[${LAST_SCREEN_ATTR}]`) || root.querySelector(NOT_READY)) return;
  const before = read();
  const screens = {
    ...(before?.uid === uid ? before.screens : {}),
    [here()]: { html: serialise(root), savedAt: Date.now() },
  };
  // The newest first; the oldest go when there are too many or they are too large together.
  const entries = Object.entries(screens).sort(([, a], [, b]) => b.savedAt - a.savedAt);
  let chars = 0;
  const keep = entries.filter(([, s], i) => i < MAX_SCREENS && (chars += s.html.length) <= MAX_CHARS);
  const write = (list: typeof entries) =>
    localStorage.setItem(
      LAST_SCREEN_KEY,
      JSON.stringify({ v: VERSION, build: BUILD, uid, screens: Object.fromEntries(list) } satisfies Saved),
    );
  try {
    write(keep);
  } catch {
    // Storage full: this screen alone, or none.
    try {
      write(keep.slice(0, 1));
    } catch {
      forgetLastScreens();
    }
  }
}

/**
 * Takes the student's screen a moment after their data last changed (when the tab is in view) and when
 * the tab is hidden, until the returned stop is called. A sign-out in another tab forgets the screens
 * there; this tab then takes no more, so nothing of the student comes back.
 */
export function keepLastScreens(qc: QueryClient, uid: string): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let live = true;
  const take = () => {
    timer = null;
    if (live) takeLastScreen(uid);
  };
  const unsubscribe = qc.getQueryCache().subscribe(() => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      if (document.visibilityState === 'visible') take();
      else timer = null;
    }, TAKE_AFTER_MS);
  });
  const onHidden = () => {
    if (document.visibilityState !== 'hidden') return;
    if (timer) clearTimeout(timer);
    take();
  };
  const onForgotten = (e: StorageEvent) => {
    if (e.key === LAST_SCREEN_KEY && e.newValue === null) stop();
  };
  document.addEventListener('visibilitychange', onHidden);
  window.addEventListener('storage', onForgotten);
  function stop() {
    live = false;
    if (timer) clearTimeout(timer);
    unsubscribe();
    document.removeEventListener('visibilitychange', onHidden);
    window.removeEventListener('storage', onForgotten);
  }
  return stop;
}
