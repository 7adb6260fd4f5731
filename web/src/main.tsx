// First: draws the last screen kept of this page before React loads (offline/last-screen.ts).
import { lastScreenOf } from './offline/paint-last-screen';
import type { PublicConfig } from '@ct/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { refetchOnMount, trackAhead } from './api/prefetch';
import { App, preloadPage } from './App';
import { readSessionEarly, SessionProvider } from './auth/session';
import { ProblemPage } from './components/ErrorPage';
import { ConfigContext, setAppConfig } from './config';
import { restoreOnce } from './offline/device';
import { DeviceStore } from './offline/DeviceStore';
import { dropLastScreen } from './offline/last-screen';
import { registerServiceWorker } from './pwa/register';
import { UpdatePrompt } from './pwa/UpdatePrompt';
import './styles/global.css';

const root = createRoot(document.getElementById('root')!);

/**
 * The app could not start (its configuration did not load): the header and the product's own page with
 * Retry, which starts the app again without reloading.
 */
function BootError({ again }: { again: boolean }) {
  return (
    <>
      <header className="navbar loaded">
        <div className="navbar-inner">
          <a href="/" className="brand">
            {document.title}
          </a>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        <ProblemPage
          shown="offline"
          stillFailing={again}
          onRetry={() => {
            root.render(<BootError again={again} />);
            void boot(true);
          }}
        />
      </main>
    </>
  );
}

/** The configuration the gateway wrote into the page (gateway/src/plugins/web.ts), if it did. */
function embeddedConfig(): PublicConfig | null {
  const block = document.getElementById('public-config');
  if (!block?.textContent) return null;
  try {
    return JSON.parse(block.textContent) as PublicConfig;
  } catch {
    return null;
  }
}

const CONFIG_KEY = 'college-ready:public-config';

/**
 * How long the first render waits for what the device knows (who is signed in, then their saved data):
 * both are a few milliseconds of IndexedDB, and with them the first screen is the student's own, drawn
 * once. A device slower than this renders without them and draws them when they come.
 */
const DEVICE_WAIT_MS = 250;
/**
 * With the page's last screen on show, the first render waits longer, for everything it needs to draw the
 * same screen live (the session, the device's data and the page's chunk), rather than replacing it with a
 * loading one for a moment.
 */
const LAST_SCREEN_WAIT_MS = 3_000;

/** Resolves when `p` settles or `ms` have passed, whichever is first. */
const within = (p: Promise<unknown>, ms: number) =>
  Promise.race([p.catch(() => {}), new Promise<void>((r) => setTimeout(r, ms))]);

/**
 * The configuration this device last received. The service worker answers a page from its cached shell,
 * which has none written in: the app starts from this copy (offline too) and refreshes it from the server.
 */
function savedConfig(): PublicConfig | null {
  try {
    const raw = localStorage.getItem(CONFIG_KEY);
    return raw ? (JSON.parse(raw) as PublicConfig) : null;
  } catch {
    return null;
  }
}
function saveConfig(config: PublicConfig): void {
  try {
    localStorage.setItem(CONFIG_KEY, JSON.stringify(config));
  } catch {
    // private mode or full storage: the next start asks the server again
  }
}
async function fetchConfig(): Promise<PublicConfig> {
  const res = await fetch('/api/public-config', { cache: 'no-store' });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return (await res.json()) as PublicConfig;
}

async function boot(retry = false) {
  // For the repeat-visit figures of `npm run pagespeed`: when the app's script has loaded and runs.
  performance.mark('app-start');
  let config: PublicConfig;
  try {
    const embedded = embeddedConfig();
    const saved = embedded ? null : savedConfig();
    if (embedded) config = embedded;
    else if (saved) {
      config = saved;
      // Kept fresh for the next start; this one goes on with the copy.
      void fetchConfig()
        .then(saveConfig)
        .catch(() => {});
    } else config = await fetchConfig();
    saveConfig(config);
  } catch {
    root.render(<BootError again={retry} />);
    return;
  }
  setAppConfig(config);
  const queryClient = new QueryClient({
    // Kept a day in memory so that what was seen stays on the device (src/offline/DeviceStore.tsx).
    defaultOptions: {
      queries: { retry: 1, refetchOnWindowFocus: false, refetchOnMount, gcTime: 24 * 3_600_000 },
    },
  });
  // What the device knows, before the first render: the session it stored, then the student's saved
  // data (painted before the network answers), while the page's own chunk loads.
  const session = readSessionEarly(config.firebase.apiKey).then((s): Promise<unknown> | null => {
    const student = s && s !== 'nobody' ? s : null;
    // A screen kept for someone else (signed out elsewhere, say) goes at once.
    if (lastScreenOf && lastScreenOf !== student?.user.uid) dropLastScreen();
    // The device's read first: it goes on off the main thread while the chunk's preloads are set up.
    const restored = student && restoreOnce(queryClient, student.user.uid);
    const chunk = preloadPage(location.pathname, student !== null);
    return lastScreenOf ? Promise.all([restored, chunk]) : restored;
  });
  await within(session, lastScreenOf ? LAST_SCREEN_WAIT_MS : DEVICE_WAIT_MS);
  trackAhead(queryClient);
  registerServiceWorker();
  // A transition: React renders the first screen in short slices, so a slow phone stays responsive.
  startTransition(() =>
    root.render(
      <StrictMode>
        <ConfigContext.Provider value={config}>
          <QueryClientProvider client={queryClient}>
            <SessionProvider>
              <DeviceStore>
                <App />
              </DeviceStore>
              <UpdatePrompt />
            </SessionProvider>
          </QueryClientProvider>
        </ConfigContext.Provider>
      </StrictMode>,
    ),
  );
}
void boot();
