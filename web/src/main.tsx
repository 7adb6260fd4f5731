import type { PublicConfig } from '@ct/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { SessionProvider } from './auth/session';
import { ConfigContext } from './config';
import { initFirebase } from './firebase';
import './styles/global.css';

const root = createRoot(document.getElementById('root')!);

async function boot() {
  let config: PublicConfig;
  try {
    const res = await fetch('/api/public-config');
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    config = (await res.json()) as PublicConfig;
  } catch {
    root.render(
      <p role="alert" className="boot-error">
        We could not reach the server. Check your connection and reload the page.
      </p>,
    );
    return;
  }
  initFirebase(config);
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } },
  });
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
  );
}
void boot();
