import type { Source } from '@ct/contracts';
import { formatGatheredDate, linkLabel, safeUrl } from '../../lib/format';

/** `College.sources`: fact path ("info.deadlines", "demographics.finance.costAttendance") → where and when. */
export type Sources = Record<string, Source>;

/** "info.deadlines[0]" and "info.deadlines.0" name the same fact. */
const norm = (path: string) => path.replace(/\[(\d+)\]/g, '.$1').replace(/^\.+/, '');

/**
 * The source that covers a fact: the one recorded for its own path, else for the nearest enclosing path
 * (a source for "demographics" covers "demographics.schoolSize"). Returns its key so callers can tell
 * whether a fact has a source of its own or shares its section's.
 */
export function findSource(
  sources: Sources | undefined,
  path: string,
): { key: string; source: Source } | null {
  if (!sources) return null;
  const byPath = new Map(Object.entries(sources).map(([k, v]) => [norm(k), v]));
  let p = norm(path);
  for (;;) {
    const hit = byPath.get(p);
    if (hit) return { key: p, source: hit };
    const dot = p.lastIndexOf('.');
    if (dot < 0) return null;
    p = p.slice(0, dot);
  }
}

/**
 * "Source: host/path, gathered Jan 5, 2026" for one source. An official data file says when it was
 * released instead ("released Jan 16, 2025"), or nothing more than its title (which names its year) when
 * the file does not state its release: the day this copy was loaded is no date of the data.
 */
export function SourceLink({ source }: { source: Source }) {
  const href = safeUrl(source.url);
  const gathered = formatGatheredDate(source.gatheredAt);
  const when =
    source.released === undefined ? (
      <>
        , gathered <time dateTime={source.gatheredAt}>{gathered}</time>
      </>
    ) : source.released === null ? null : (
      <>
        , released <time dateTime={source.released}>{formatGatheredDate(source.released)}</time>
      </>
    );
  return (
    <span className="source-note">
      Source:{' '}
      {href ? (
        <a href={href} target="_blank" rel="noopener noreferrer">
          {source.title?.trim() || linkLabel(href)}
        </a>
      ) : (
        <span>{source.title?.trim() || 'unknown'}</span>
      )}
      {when}
    </span>
  );
}

/**
 * The source of a fact at `path`, shown next to it, unless it is the same source its section already
 * shows (`sectionPath`), so a section gathered from one page does not repeat the link on every line.
 */
export function FactSource({
  sources,
  path,
  sectionPath,
}: {
  sources: Sources | undefined;
  path: string;
  sectionPath?: string;
}) {
  const own = findSource(sources, path);
  if (!own) return null;
  if (sectionPath !== undefined) {
    const section = findSource(sources, sectionPath);
    if (section && section.key === own.key) return null;
  }
  return <SourceLink source={own.source} />;
}
