import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { useMyPrompts } from './drafts';
import { wordLimitText } from './workspace';

/**
 * Beyond the spec: the prompts of the student's own colleges grouped by kind ("why us", community,
 * activity...), so one draft can serve several. Quietly absent when the student's list cannot be read.
 */
export function PromptGroups() {
  const mine = useMyPrompts();
  const q = useQuery({
    queryKey: ['prompt-groups'],
    queryFn: ({ signal }) => api.getPromptGroups({ signal }),
    retry: false,
  });
  if (q.isPending || q.isError) return null;
  const { groups, colleges } = q.data;
  // The colleges asking a prompt, in the student's list order, as the drafts below name them.
  const listed = mine.data?.map((c) => c.collegeName) ?? colleges;
  const place = new Map(listed.map((c, i) => [c, i]));
  const inListOrder = (names: readonly string[]) =>
    [...names].sort((a, b) => (place.get(a) ?? listed.length) - (place.get(b) ?? listed.length));
  return (
    <section className="card essay-groups" aria-labelledby="essay-groups-title">
      <h2 id="essay-groups-title">Plan your drafts</h2>
      {colleges.length === 0 || groups.length === 0 ? (
        // `colleges` are the student's colleges that have prompts: none yet is not an empty list.
        <p className="muted">
          Once the prompts of your colleges are known, similar ones are grouped here, so one draft can serve
          several.
        </p>
      ) : (
        <>
          <p className="muted">
            Similar prompts across your colleges ({colleges.join(', ')}). One good draft can be adapted for
            each prompt in a group, and a prompt several colleges ask is one draft.
          </p>
          {groups.map((g) => (
            <details
              key={g.category}
              className="essay-group"
              open={g.prompts.length > 1 || g.prompts.some((p) => p.colleges.length > 1)}
            >
              <summary>
                <strong>{g.label}</strong>{' '}
                <span className="essay-badge">
                  {g.prompts.length} prompt{g.prompts.length === 1 ? '' : 's'}
                </span>
              </summary>
              <p className="muted">{g.advice}</p>
              <ul>
                {g.prompts.map((p) => {
                  const limit = wordLimitText(p.wordLimit);
                  return (
                    <li key={`${p.collegeName}|${p.prompt}`}>
                      <strong>{inListOrder(p.colleges).join(', ')}:</strong> {p.prompt}
                      {p.colleges.length > 1 ? (
                        <span className="essay-badge">One draft for {p.colleges.length} colleges</span>
                      ) : null}
                      {limit ? <span className="essay-badge">{limit}</span> : null}
                    </li>
                  );
                })}
              </ul>
            </details>
          ))}
        </>
      )}
    </section>
  );
}
