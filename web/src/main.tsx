import type { PublicConfig } from '@ct/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { refetchOnMount, trackAhead } from './api/prefetch';
import { App } from './App';
import { readSessionEarly, SessionProvider } from './auth/session';
import { ProblemPage } from './components/ErrorPage';
import { ConfigContext, setAppConfig } from './config';
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

async function boot(retry = false) {
  let config: PublicConfig;
  try {
    const embedded = embeddedConfig();
    if (embedded) config = embedded;
    else {
      const res = await fetch('/api/public-config', { cache: 'no-store' });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      config = (await res.json()) as PublicConfig;
    }
  } catch {
    root.render(<BootError again={retry} />);
    return;
  }
  setAppConfig(config);
  // The session this device stored is read while React draws the first screen.
  void readSessionEarly(config.firebase.apiKey);
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false, refetchOnMount } },
  });
  trackAhead(queryClient);
  // A transition: React renders the first screen in short slices, so a slow phone stays responsive.
  startTransition(() =>
    root.render(
      <StrictMode>
        <ConfigContext.Provider value={config}>
          <QueryClientProvider client={queryClient}>
            <SessionProvider>
              <App />
            </SessionProvider>
          </QueryClientProvider>
        </ConfigContext.Provider>
      </StrictMode>,
    ),
  );
}
void boot();
