import { normaliseCollegeName } from '@ct/contracts/constants';
import { useQueries } from '@tanstack/react-query';
import { isMissing, NO_INFO } from '../../lib/format';
import { fetchCachedCollege } from '../search/api';

/** A requirement as the data words it, or null when the data does not say. */
function said(v: unknown): string | null {
  return typeof v === 'string' && !isMissing(v) ? v.trim() : null;
}

/**
 * What the college data says about essays for colleges whose prompts we do not have (no AI key, or not
 * gathered yet): the personal essay and writing supplement as the Common App requirements grid gives them,
 * else "No Info Found". A student then knows whether to look for a prompt, and can paste it below.
 */
export function WritingRequirements({ colleges }: { colleges: readonly string[] }) {
  const queries = useQueries({
    queries: colleges.map((name) => ({
      queryKey: ['college', normaliseCollegeName(name)],
      queryFn: ({ signal }: { signal: AbortSignal }) => fetchCachedCollege(name, signal),
      staleTime: 5 * 60_000,
    })),
  });
  if (!colleges.length) return null;
  const loading = <span className="muted">Loading...</span>;
  return (
    <div className="writing-requirements">
      <p className="muted">
        We have no essay prompts yet for these colleges. Here is what their data says; paste a prompt from the
        application to write for it.
      </p>
      <ul aria-label="What your colleges ask for in writing">
        {colleges.map((name, i) => {
          const q = queries[i]!;
          const r = (q.data?.info.requirements ?? {}) as Record<string, unknown>;
          const supplement = said(r.writingSupplement);
          const essay = said(r.personalEssay);
          return (
            <li key={name}>
              <strong>{name}</strong>
              {/* The same lines while loading, so nothing below moves when the data comes. */}
              <dl className="writing-facts" aria-busy={q.isPending}>
                <div>
                  <dt>Personal essay</dt>
                  <dd>{q.isPending ? loading : (essay ?? <span className="no-info">{NO_INFO}</span>)}</dd>
                </div>
                <div>
                  <dt>Writing supplement</dt>
                  <dd>
                    {q.isPending ? loading : (supplement ?? <span className="no-info">{NO_INFO}</span>)}
                  </dd>
                </div>
              </dl>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
