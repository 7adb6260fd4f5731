import { useEffect, useState } from 'react';
import './pwa.css';

/** Chrome's install event (not in the DOM typings yet). */
interface InstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

let deferred: InstallPromptEvent | null = null;
if (typeof window !== 'undefined') {
  window.addEventListener('beforeinstallprompt', (e) => {
    e.preventDefault();
    deferred = e as InstallPromptEvent;
  });
}

const standalone = () =>
  window.matchMedia('(display-mode: standalone)').matches ||
  (navigator as Navigator & { standalone?: boolean }).standalone === true;
const ios = () =>
  /iphone|ipad|ipod/i.test(navigator.userAgent) ||
  (navigator.platform === 'MacIntel' && navigator.maxTouchPoints > 1);

/**
 * "Install on your phone": the steps for iOS Safari (Share, then Add to Home Screen) and for Android Chrome
 * (its menu, or the Install button when Chrome offers the app). Hidden once the app runs installed.
 */
export function InstallHint() {
  const [canPrompt, setCanPrompt] = useState(() => deferred !== null);
  const [installed, setInstalled] = useState(standalone);
  useEffect(() => {
    const offered = () => setCanPrompt(true);
    const done = () => setInstalled(true);
    window.addEventListener('beforeinstallprompt', offered);
    window.addEventListener('appinstalled', done);
    return () => {
      window.removeEventListener('beforeinstallprompt', offered);
      window.removeEventListener('appinstalled', done);
    };
  }, []);
  if (installed) return null;
  return (
    <section className="card install-hint" aria-labelledby="install-hint-title">
      <h2 id="install-hint-title">Install on your phone</h2>
      {ios() ? (
        <p>
          In Safari, tap <strong>Share</strong>, then <strong>Add to Home Screen</strong>.
        </p>
      ) : (
        <p>
          In Chrome on Android, open the menu (<strong>⋮</strong>) and tap <strong>Install app</strong> or{' '}
          <strong>Add to Home screen</strong>. On an iPhone, use Safari: <strong>Share</strong>, then{' '}
          <strong>Add to Home Screen</strong>.
        </p>
      )}
      {canPrompt && deferred && (
        <button
          type="button"
          className="button"
          onClick={() => {
            const e = deferred;
            deferred = null;
            setCanPrompt(false);
            void e?.prompt();
          }}
        >
          Install College Ready
        </button>
      )}
    </section>
  );
}
