import { registerSW } from 'virtual:pwa-register';

type Listener = () => void;
const listeners = new Set<Listener>();
let waiting = false;
let update: ((reload?: boolean) => Promise<void>) | null = null;

/**
 * Registers the service worker once the page has loaded (the plugin waits for the load event), so a first
 * visit's own requests go first. A new version waits until the student accepts the update prompt.
 */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator) || update) return;
  update = registerSW({
    onNeedRefresh() {
      waiting = true;
      for (const l of listeners) l();
    },
  });
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
