import type { ExampleEssay } from '@ct/contracts';
import { MSG } from '@ct/contracts/messages';
import { api, ApiError } from '../../api/client';
import { usePoll } from '../../hooks/usePoll';
import { StatusBanner } from '../../components/StatusBanner';

/** While example essays are being written the server answers 202; ask again this often. */
export const EXAMPLES_POLL_MS = 2000;

function Paragraphs({ text }: { text: string }) {
  return (
    <>
      {text
        .split(/\n\s*\n/)
        .map((p) => p.trim())
        .filter(Boolean)
        .map((p, i) => (
          <p key={i}>{p}</p>
        ))}
    </>
  );
}

/** The example essays of one prompt: loaded when the prompt is opened, polled while being written. */
export function Examples({ collegeName, prompt, id }: { collegeName: string; prompt: string; id: string }) {
  const q = usePoll({
    queryKey: ['essays', collegeName, prompt],
    queryFn: (signal) => api.getEssays({ collegeName, prompt }, { signal }),
    done: (r) => r.status !== 202,
    intervalMs: EXAMPLES_POLL_MS,
  });

  let content;
  if (q.isError) {
    const notFound = q.error instanceof ApiError && q.error.status === 404;
    content = notFound ? (
      <p className="muted" role="status">
        {MSG.noEssaysFound}
      </p>
    ) : (
      <StatusBanner kind="error">{MSG.errorFetchingEssays}</StatusBanner>
    );
  } else if (q.isPending || q.data.status === 202) {
    content = (
      <p className="essay-status" role="status">
        <span className="essay-spinner" aria-hidden="true" />
        {q.data?.status === 202
          ? 'Writing example essays for this prompt. This can take a minute...'
          : 'Loading essays...'}
      </p>
    );
  } else {
    const examples: ExampleEssay[] =
      'examples' in q.data && q.data.examples.length
        ? q.data.examples
        : (q.data.essays ?? []).map((text, i) => ({
            id: String(i),
            text,
            title: null,
            origin: 'ai' as const,
            label: "Example essay. It is not a real applicant's essay.",
            createdAt: '',
          }));
    content = examples.length ? (
      <ol className="essay-examples">
        {examples.map((e, i) => (
          <li key={e.id}>
            <article className="essay-example" aria-labelledby={`${id}-ex-${i}`}>
              <h4 id={`${id}-ex-${i}`}>
                Example essay {i + 1}
                {e.title ? `: ${e.title}` : ''}
              </h4>
              <p className="essay-label">{e.label}</p>
              <Paragraphs text={e.text} />
            </article>
          </li>
        ))}
      </ol>
    ) : (
      <p className="muted" role="status">
        {MSG.noEssaysFound}
      </p>
    );
  }
  return (
    <div id={id} className="essay-examples-region" aria-live="polite">
      {content}
    </div>
  );
}
