import type { College } from '@ct/contracts';
import { COMPARE_METRICS, normaliseCollegeName } from '@ct/contracts/constants';
import { MSG } from '@ct/contracts/messages';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { errorMessage } from '../../api/client';
import { SuggestInput } from '../../components/SuggestInput';
import { CollegeCard } from '../colleges';
import { fetchCachedCollege, fetchCollegeSuggestions } from './api';
import { formatMetric, metricValue, verdicts, type Verdict } from './compare';

const VERDICT_TEXT: Record<Exclude<Verdict, null>, string> = {
  better: 'Better',
  worse: 'Worse',
  same: 'Same',
};

/** A chosen college from the cache; compare never gathers new colleges (search does). */
function useChosenCollege(name: string | null) {
  return useQuery({
    queryKey: ['college', name ? normaliseCollegeName(name) : ''],
    queryFn: ({ signal }) => fetchCachedCollege(name!, signal),
    enabled: !!name,
    staleTime: 60_000,
  });
}

function ValueCell({ text, verdict }: { text: string; verdict: Verdict }) {
  return (
    <td className={verdict ? `verdict-${verdict}` : undefined} data-verdict={verdict ?? 'none'}>
      <span className="metric-value">{text}</span>
      {verdict && verdict !== 'same' ? (
        <span className="verdict-tag">
          <span aria-hidden="true">{verdict === 'better' ? '▲ ' : '▼ '}</span>
          {VERDICT_TEXT[verdict]}
        </span>
      ) : null}
    </td>
  );
}

/** Every compare metric side by side; the better value green, the worse red, and both also said in words. */
export function CompareTable({ first, second }: { first: College | null; second: College | null }) {
  return (
    <div className="compare-table-wrap" tabIndex={0} role="region" aria-label="Comparison table">
      <table className="compare-table">
        <caption>
          Side-by-side comparison. The better value of each row is marked Better (green), the other Worse
          (red).
        </caption>
        <thead>
          <tr>
            <th scope="col">Metric</th>
            <th scope="col">{first?.name ?? 'College 1'}</th>
            <th scope="col">{second?.name ?? 'College 2'}</th>
          </tr>
        </thead>
        <tbody>
          {COMPARE_METRICS.map((m) => {
            const a = metricValue(first, m);
            const b = metricValue(second, m);
            const [va, vb] = verdicts(m, a, b);
            return (
              <tr key={m.path}>
                <th scope="row">
                  {m.label}
                  <span className="direction">
                    {m.better === 'higher' ? 'higher is better' : 'lower is better'}
                  </span>
                </th>
                <ValueCell text={formatMetric(m, a)} verdict={va} />
                <ValueCell text={formatMetric(m, b)} verdict={vb} />
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** Compare Colleges: two inputs with suggestions; once both are chosen, the metrics and two detail cards. */
export function ComparePanel() {
  const [text, setText] = useState<[string, string]>(['', '']);
  const [chosen, setChosen] = useState<[string | null, string | null]>([null, null]);
  const first = useChosenCollege(chosen[0]);
  const second = useChosenCollege(chosen[1]);

  const choose = (i: 0 | 1, name: string) => {
    const v = name.trim() || null;
    setChosen((c) => (i === 0 ? [v, c[1]] : [c[0], v]));
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setChosen([text[0].trim() || null, text[1].trim() || null]);
  };

  const both = chosen[0] !== null && chosen[1] !== null;
  const loading = (chosen[0] !== null && first.isPending) || (chosen[1] !== null && second.isPending);
  const failed = [first.error, second.error].find(Boolean);

  return (
    <div className="compare-panel">
      <form className="compare-form" onSubmit={submit} aria-label="Compare colleges">
        {([0, 1] as const).map((i) => (
          <SuggestInput
            key={i}
            id={`compare-college-${i + 1}`}
            label={`College ${i + 1}`}
            value={text[i]}
            onChange={(v) => setText((t) => (i === 0 ? [v, t[1]] : [t[0], v]))}
            onSelect={(v) => choose(i, v)}
            fetchSuggestions={fetchCollegeSuggestions}
            placeholder="Start typing a cached college"
          />
        ))}
        <button type="submit" disabled={!text[0].trim() || !text[1].trim()}>
          Compare
        </button>
      </form>
      <p className="muted compare-hint">
        Pick both colleges from the suggestions (or type their names and press Compare). Only colleges already
        cached can be compared; search for a college first to add it.
      </p>

      {failed ? (
        <div className="banner error" role="alert">
          {MSG.errorOccurred(errorMessage(failed))}
        </div>
      ) : null}
      {both && loading ? (
        <p role="status" className="muted">
          {MSG.loading}
        </p>
      ) : null}
      {both && !loading && !failed ? (
        <>
          <h2 className="compare-heading">Comparison</h2>
          <CompareTable first={first.data ?? null} second={second.data ?? null} />
          <div className="compare-cards">
            {([first.data, second.data] as const).map((college, i) =>
              college ? (
                <CollegeCard key={college.name} college={college} />
              ) : (
                <div key={`missing-${i}`} className="card compare-missing" role="note">
                  {MSG.noDataForCollege((i + 1) as 1 | 2)}
                </div>
              ),
            )}
          </div>
        </>
      ) : null}
    </div>
  );
}
