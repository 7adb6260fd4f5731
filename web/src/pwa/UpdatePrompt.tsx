import { useState, useSyncExternalStore } from 'react';
import { applyUpdate, onUpdateWaiting, updateWaiting } from './register';
import './pwa.css';

/** A bar at the foot of the screen when a new version of the app has been installed and waits. */
export function UpdatePrompt() {
  const waiting = useSyncExternalStore(onUpdateWaiting, updateWaiting, () => false);
  const [dismissed, setDismissed] = useState(false);
  if (!waiting || dismissed) return null;
  return (
    <div className="pwa-bar" role="status">
      <span>A new version of College Ready is ready.</span>
      <button type="button" className="button" onClick={() => void applyUpdate()}>
        Reload
      </button>
      <button type="button" className="button secondary" onClick={() => setDismissed(true)}>
        Later
      </button>
    </div>
  );
}
