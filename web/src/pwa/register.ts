import { registerSW } from 'virtual:pwa-register';

type Listener = () => void;
const listeners = new Set<Listener>();
let waiting = false;
let started = false;
let update: ((reload?: boolean) => Promise<void>) | null = null;

/** After the load event, how long the page's own requests (its chunks, its data) have the network alone. */
const QUIET_AFTER_LOAD_MS = 2_000;

/**
 * Registers the service worker once the page has loaded and had a quiet moment: its registration script
 * (workbox-window) and its precache (the whole shell) would otherwise share a first visit's network and
 * main thread with the page's own chunks and data, before the page has drawn its content. A new version
 * waits until the student accepts the update prompt.
 */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator) || started) return;
  started = true;
  const register = () => {
    update = registerSW({
      immediate: true,
      onNeedRefresh() {
        waiting = true;
        for (const l of listeners) l();
      },
    });
  };
  const idle = (fn: () => void) =>
    'requestIdleCallback' in window ? requestIdleCallback(fn, { timeout: 5_000 }) : setTimeout(fn, 0);
  const later = () => setTimeout(() => idle(register), QUIET_AFTER_LOAD_MS);
  if (document.readyState === 'complete') later();
  else window.addEventListener('load', later, { once: true });
}

/** Whether a new version is installed and waiting (for useSyncExternalStore). */
export const updateWaiting = () => waiting;
export function onUpdateWaiting(l: Listener): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

/** Lets the waiting version take over, then reloads into it. */
export async function applyUpdate(): Promise<void> {
  await update?.(true);
}
