import { Component, useEffect, useRef, useState, type ErrorInfo, type ReactNode } from 'react';
import { StatusBanner } from './StatusBanner';
import { forgetSavedQueries } from '../offline/device';

/** How browsers word a page chunk (or its stylesheet) that could not be fetched. */
const CHUNK_ERROR =
  /dynamically imported module|Importing a module script failed|error loading dynamically imported module|Unable to preload CSS|Failed to load module script/i;

/** True when the error is a part of the app (a page's chunk) that could not be loaded. */
export function isChunkError(error: unknown): boolean {
  return error instanceof Error && CHUNK_ERROR.test(`${error.name} ${error.message}`);
}

const ENTRY_SCRIPT = /<script[^>]+type="module"[^>]+src="([^"]+)"/;
/** The build this tab reloaded for once already (a second failure then shows the page, never a loop). */
const RELOADED_FOR = 'ct-reloaded-for-build';

type Diagnosis = { kind: 'offline' } | { kind: 'new-build'; entry: string } | { kind: 'same-build' };

/**
 * Why a page's chunk could not be loaded: the server does not answer, or it now serves a newer build
 * (a deploy renamed the files this tab knows), or neither.
 */
async function diagnose(): Promise<Diagnosis> {
  try {
    const res = await fetch('/', { cache: 'no-store', headers: { accept: 'text/html' } });
    if (!res.ok) return { kind: 'offline' };
    const latest = ENTRY_SCRIPT.exec(await res.text())?.[1];
    const current = document
      .querySelector<HTMLScriptElement>('script[type="module"][src]')
      ?.getAttribute('src');
    return latest && current && latest !== current
      ? { kind: 'new-build', entry: latest }
      : { kind: 'same-build' };
  } catch {
    return { kind: 'offline' };
  }
}

/** Reloads the tab onto the newer build, once per build. Returns false when it already did. */
function reloadOnce(entry: string): boolean {
  try {
    if (sessionStorage.getItem(RELOADED_FOR) === entry) return false;
    sessionStorage.setItem(RELOADED_FOR, entry);
  } catch {
    return false;
  }
  window.location.reload();
  return true;
}

type Shown = 'checking' | 'offline' | 'broken';

const TEXT: Record<Exclude<Shown, 'checking'>, { title: string; body: string }> = {
  offline: {
    title: 'We could not reach the server',
    body: 'Check your internet connection, then try again. Everything you saved is kept on the server.',
  },
  broken: {
    title: 'Something went wrong on this page',
    body: 'Try again, or go to the home page. Everything you saved is kept on the server.',
  },
};

/**
 * The product's own page for a problem: what happened in plain words, Retry and a way home. Used when a
 * page fails (a render error, a chunk that cannot be loaded) and when the app cannot start at all.
 */
export function ProblemPage({
  shown,
  onRetry,
  retrying = false,
  stillFailing = false,
  home = (
    <a className="button secondary" href="/">
      Go to the home page
    </a>
  ),
}: {
  shown: Shown;
  onRetry(): void;
  retrying?: boolean;
  /** A retry failed again: said, so the click visibly did something. */
  stillFailing?: boolean;
  home?: ReactNode;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (shown !== 'checking') heading.current?.focus();
  }, [shown]);
  if (shown === 'checking') {
    return (
      <section className="page problem-page">
        <p className="muted" role="status">
          Checking the connection...
        </p>
      </section>
    );
  }
  const t = TEXT[shown];
  return (
    <section className="page problem-page" aria-labelledby="problem-title">
      <h1 id="problem-title" ref={heading} tabIndex={-1}>
        {t.title}
      </h1>
      <p>{t.body}</p>
      {stillFailing ? (
        <StatusBanner kind="error">Still not working. Wait a moment and try again.</StatusBanner>
      ) : null}
      <div className="problem-actions">
        <button type="button" onClick={onRetry} disabled={retrying}>
          {retrying ? 'Retrying...' : 'Retry'}
        </button>
        {home}
      </div>
    </section>
  );
}

/**
 * A page that failed: a chunk that cannot be loaded reloads the tab once when a newer build is being
 * served, otherwise the page says whether the server is unreachable. Retry loads the app again when the
 * server answers (a failed chunk, or data the page could not use, stays cached in the tab otherwise).
 */
export function PageError({ error, home }: { error: unknown; home?: ReactNode }) {
  const chunk = isChunkError(error);
  const [shown, setShown] = useState<Shown>(chunk ? 'checking' : 'broken');
  const [retrying, setRetrying] = useState(false);
  const [stillFailing, setStillFailing] = useState(false);

  useEffect(() => {
    if (!chunk) return;
    let live = true;
    void diagnose().then((d) => {
      if (!live) return;
      if (d.kind === 'new-build' && reloadOnce(d.entry)) return;
      setShown(d.kind === 'offline' ? 'offline' : 'broken');
    });
    return () => {
      live = false;
    };
  }, [chunk]);

  const retry = async () => {
    setRetrying(true);
    const d = await diagnose();
    if (d.kind === 'offline') {
      setRetrying(false);
      setShown('offline');
      setStillFailing(true);
      return;
    }
    // The device's copy of the data may be what the page could not use: the reload starts from the server.
    await forgetSavedQueries().catch(() => {});
    window.location.reload();
  };

  return (
    <ProblemPage
      shown={shown}
      onRetry={() => void retry()}
      retrying={retrying}
      stillFailing={stillFailing}
      {...(home ? { home } : {})}
    />
  );
}

/**
 * Catches what a page throws while rendering (or loading) and shows PageError instead of a blank screen
 * (or `fallback`, for a part of the app that frames the page itself).
 */
export class PageErrorBoundary extends Component<
  { children: ReactNode; home?: ReactNode; fallback?: (error: unknown) => ReactNode },
  { error: unknown }
> {
  override state = { error: null as unknown };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('page error', error, info.componentStack);
  }

  override render() {
    if (this.state.error === null) return this.props.children;
    if (this.props.fallback) return this.props.fallback(this.state.error);
    return <PageError error={this.state.error} home={this.props.home} />;
  }
}
