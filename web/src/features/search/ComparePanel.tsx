import type { College, StudentProfile } from '@ct/contracts';
import { normaliseCollegeName } from '@ct/contracts/constants';
import { MSG } from '@ct/contracts/messages';
import { useQueries } from '@tanstack/react-query';
import { useEffect, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { NO_INFO } from '../../lib/format';
import { useSearchParams } from 'react-router';
import { errorMessage } from '../../api/client';
import { SuggestInput } from '../../components/SuggestInput';
import { CollegeCard } from '../colleges';
import { ApplicationCost, FitBand } from '../fit';
import { useStudentProfile } from '../money/api';
import { MoneyLabel, MoneyValue, ProfileInvite } from '../money/MoneySummary';
import '../money/money.css';
import { fetchCachedCollege, fetchCollegeSuggestions } from './api';
import {
  bestText,
  compareRows,
  groupRows,
  MAX_COMPARED,
  type CompareGroupId,
  type CompareRow,
  type Verdict,
} from './compare';
import { StatusBanner } from '../../components/StatusBanner';

/** The compare set lives in the URL: /search?mode=compare&c=A&c=B (at most four). */
function useCompareSet(): [string[], (names: string[]) => void] {
  const [params, setParams] = useSearchParams();
  const names = params
    .getAll('c')
    .map((c) => c.trim())
    .filter(Boolean)
    .slice(0, MAX_COMPARED);
  const set = (next: string[]) =>
    setParams((p) => {
      const q = new URLSearchParams(p);
      q.delete('c');
      for (const n of next) q.append('c', n);
      q.set('mode', 'compare');
      return q;
    });
  return [names, set];
}

/** A college for each chosen name, from the cache; compare never gathers new colleges (search does). */
function useChosenColleges(names: readonly string[]) {
  return useQueries({
    queries: names.map((name) => ({
      queryKey: ['college', normaliseCollegeName(name)],
      queryFn: ({ signal }: { signal: AbortSignal }) => fetchCachedCollege(name, signal),
      staleTime: 60_000,
    })),
  });
}

/** "★ Best", or "★ Best of 3 with data" when some of the colleges have no value on the row. */
function VerdictTag({ verdict, row }: { verdict: Verdict; row: CompareRow }) {
  if (verdict !== 'best') return null;
  return (
    <span className="verdict-tag">
      <span aria-hidden="true">★ </span>
      {bestText(row)}
    </span>
  );
}

const directionText = (row: CompareRow) =>
  row.better === 'higher'
    ? 'higher is better'
    : row.better === 'lower'
      ? 'lower is better'
      : 'a fact to weigh';

function rowLabel(row: CompareRow): ReactNode {
  return row.kind === 'money' ? <MoneyLabel figure={row.labelFigure} /> : row.label;
}

/** A row's name in a sentence (the money rows' label without their detail). */
const rowName = (row: CompareRow) => (row.kind === 'money' ? row.labelFigure.label : row.label);

/** The button that folds a group of rows away or opens it again: "▾ Price and aid (12 rows)". */
function GroupToggle({
  title,
  count,
  open,
  onToggle,
}: {
  title: string;
  count: number;
  open: boolean;
  onToggle(): void;
}) {
  return (
    <button type="button" className="compare-group-toggle" aria-expanded={open} onClick={onToggle}>
      <span aria-hidden="true">{open ? '▾' : '▸'} </span>
      {title} ({count} {count === 1 ? 'row' : 'rows'})
    </button>
  );
}

/** Which groups of rows the student has folded away (all open at first), shared by table and cards. */
function useFolded(): [ReadonlySet<CompareGroupId>, (id: CompareGroupId) => void] {
  const [folded, setFolded] = useState<ReadonlySet<CompareGroupId>>(new Set());
  const toggle = (id: CompareGroupId) =>
    setFolded((f) => {
      const next = new Set(f);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  return [folded, toggle];
}

function cellValue(row: CompareRow, i: number): ReactNode {
  return row.kind === 'money' ? <MoneyValue figure={row.figures[i]!} /> : row.texts[i];
}

const verdictClass = (v: Verdict) => (v === 'best' ? 'verdict-best' : undefined);

/**
 * Up to four colleges side by side, leading with the money figures for this student (the card's labels);
 * the best value of a row highlighted, only where it is clear which way a student is better off (nothing
 * is marked worse). Rows no chosen college has a value for fold into one line that names them. On a
 * phone the table becomes one stacked card per college.
 */
export function CompareTable({
  colleges,
  names,
  profile,
}: {
  colleges: ReadonlyArray<College | null>;
  names: readonly string[];
  profile: StudentProfile | null;
}) {
  const all = compareRows(colleges, profile);
  const rows = all.filter((r) => !r.empty);
  const empty = all.filter((r) => r.empty);
  const groups = groupRows(rows);
  const [folded, toggle] = useFolded();
  const heads = colleges.map((c, i) => c?.name ?? names[i] ?? `College ${i + 1}`);
  return (
    <>
      <div className="compare-table-wrap" tabIndex={0} role="region" aria-label="Comparison table">
        <table className="compare-table">
          <caption>
            Side-by-side comparison. Where a student is clearly better off one way (a lower cost or net price,
            higher earnings or graduation rate, fewer students per teacher), the best value is marked Best.
            Size, admission rate and family incomes are facts to weigh, not scores.
          </caption>
          <thead>
            <tr>
              <th scope="col">Metric</th>
              {heads.map((h, i) => (
                <th scope="col" key={`${i}-${h}`}>
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            <tr className="fit-row">
              <th scope="row">Fit for you and cost of applying</th>
              {colleges.map((c, i) => (
                <td key={i}>{c ? <FitAndCost college={c} /> : null}</td>
              ))}
            </tr>
          </tbody>
          {groups.map((g) => {
            const open = !folded.has(g.id);
            return (
              <tbody key={g.id} className="compare-group">
                <tr className="compare-group-head">
                  <td colSpan={colleges.length + 1}>
                    <GroupToggle
                      title={g.title}
                      count={g.rows.length}
                      open={open}
                      onToggle={() => toggle(g.id)}
                    />
                  </td>
                </tr>
                {open
                  ? g.rows.map((row) => (
                      <tr key={row.key} className={row.kind === 'money' ? 'money-row' : undefined}>
                        <th scope="row">
                          {rowLabel(row)}
                          <span className="direction">{directionText(row)}</span>
                        </th>
                        {colleges.map((_, i) => (
                          <td
                            key={i}
                            className={verdictClass(row.verdicts[i]!)}
                            data-verdict={row.verdicts[i] ?? 'none'}
                          >
                            <span className="metric-value">{cellValue(row, i)}</span>
                            <VerdictTag verdict={row.verdicts[i]!} row={row} />
                          </td>
                        ))}
                      </tr>
                    ))
                  : null}
              </tbody>
            );
          })}
        </table>
      </div>
      <div className="compare-stack">
        {heads.map((h, i) => (
          <section key={`${i}-${h}`} className="card compare-stack-card" aria-label={`${h} at a glance`}>
            <h3>{h}</h3>
            {colleges[i] ? <FitAndCost college={colleges[i]} /> : null}
            {groups.map((g) => {
              const open = !folded.has(g.id);
              return (
                <div key={g.id} className="compare-stack-group">
                  <GroupToggle
                    title={g.title}
                    count={g.rows.length}
                    open={open}
                    onToggle={() => toggle(g.id)}
                  />
                  {open ? (
                    <dl>
                      {g.rows.map((row) => (
                        <div
                          key={row.key}
                          className={`compare-stack-row ${verdictClass(row.verdicts[i]!) ?? ''}`}
                        >
                          <dt>{rowLabel(row)}</dt>
                          <dd data-verdict={row.verdicts[i] ?? 'none'}>
                            {cellValue(row, i)}
                            <VerdictTag verdict={row.verdicts[i]!} row={row} />
                          </dd>
                        </div>
                      ))}
                    </dl>
                  ) : null}
                </div>
              );
            })}
          </section>
        ))}
      </div>
      {empty.length ? (
        <p className="compare-empty" data-testid="compare-empty">
          <span className="no-info">{NO_INFO}</span> at any of these colleges for{' '}
          {empty.map(rowName).join(', ')}.
        </p>
      ) : null}
    </>
  );
}

/** The fit band (compact) and the cost of applying of one compared college. */
function FitAndCost({ college }: { college: College }) {
  return (
    <>
      <FitBand college={college} compact />
      <ApplicationCost college={college} />
    </>
  );
}

interface Slot {
  text: string;
  /** The name picked or submitted; null until then */
  chosen: string | null;
}

const slotsFrom = (names: readonly string[]): Slot[] => {
  const slots: Slot[] = names.map((n) => ({ text: n, chosen: n }));
  while (slots.length < 2) slots.push({ text: '', chosen: null });
  return slots;
};

/**
 * Compare Colleges: two to four inputs with suggestions; once two are chosen, the comparison and a detail
 * card per college. The chosen set is in the URL, so it can be shared and survives a reload.
 */
export function ComparePanel() {
  const [names, setNames] = useCompareSet();
  const [slots, setSlots] = useState<Slot[]>(() => slotsFrom(names));
  const profile = useStudentProfile();
  const urlKey = names.join('\n');

  // Back and forward (or a shared link) change the URL: the inputs follow it.
  useEffect(() => {
    setSlots((current) => {
      const chosen = current.flatMap((s) => (s.chosen ? [s.chosen] : []));
      return chosen.join('\n') === urlKey ? current : slotsFrom(urlKey ? urlKey.split('\n') : []);
    });
  }, [urlKey]);

  const commit = (next: Slot[]) => {
    setSlots(next);
    setNames(next.flatMap((s) => (s.chosen ? [s.chosen] : [])));
  };
  const choose = (i: number, name: string) =>
    commit(slots.map((s, j) => (j === i ? { text: name, chosen: name.trim() || null } : s)));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    commit(slots.map((s) => ({ text: s.text, chosen: s.text.trim() || null })));
  };
  const addSlot = () => setSlots((s) => (s.length < MAX_COMPARED ? [...s, { text: '', chosen: null }] : s));
  const removeSlot = (i: number) => commit(slots.filter((_, j) => j !== i));

  const queries = useChosenColleges(names);
  const loading = queries.some((q) => q.isPending) || profile.isPending;
  const failed = queries.find((q) => q.error)?.error;
  const colleges = useMemo(() => queries.map((q) => q.data ?? null), [queries]);
  const filled = slots.filter((s) => s.text.trim()).length;

  return (
    <div className="compare-panel">
      <form className="compare-form" onSubmit={submit} aria-label="Compare colleges">
        {slots.map((slot, i) => (
          <div className="compare-slot" key={i}>
            <SuggestInput
              id={`compare-college-${i + 1}`}
              label={`College ${i + 1}`}
              value={slot.text}
              onChange={(v) => setSlots((s) => s.map((x, j) => (j === i ? { ...x, text: v } : x)))}
              onSelect={(v) => choose(i, v)}
              fetchSuggestions={fetchCollegeSuggestions}
              placeholder="Start typing a cached college"
            />
            {slots.length > 2 ? (
              <button
                type="button"
                className="secondary compare-remove"
                aria-label={`Remove ${slot.text.trim() || `college ${i + 1}`} from the comparison`}
                onClick={() => removeSlot(i)}
              >
                ✕
              </button>
            ) : null}
          </div>
        ))}
        <div className="compare-actions">
          {slots.length < MAX_COMPARED ? (
            <button type="button" className="secondary" onClick={addSlot}>
              Add a college
            </button>
          ) : null}
          <button type="submit" disabled={filled < 2}>
            Compare
          </button>
        </div>
      </form>
      <p className="muted compare-hint">
        Pick two to four colleges from the suggestions (or type their names and press Compare). Only colleges
        already cached can be compared; search for a college first to add it.
      </p>

      {failed ? (
        <StatusBanner kind="error" as="div">
          {MSG.errorOccurred(errorMessage(failed))}
        </StatusBanner>
      ) : null}
      {names.length >= 2 && loading ? (
        <p role="status" className="muted">
          {MSG.loading}
        </p>
      ) : null}
      {names.length >= 2 && !loading && !failed ? (
        <>
          <h2 className="compare-heading">Comparison</h2>
          <ProfileInvite profile={profile.data ?? null} />
          <CompareTable colleges={colleges} names={names} profile={profile.data ?? null} />
          {/* The detail cards are long (every section of every college): one click folds them away. */}
          <details className="compare-details" open>
            <summary>Every fact, college by college</summary>
            <div className={`compare-cards count-${colleges.length}`}>
              {colleges.map((college, i) =>
                college ? (
                  <CollegeCard key={`${i}-${college.name}`} college={college} ownRegions />
                ) : (
                  <div key={`missing-${i}`} className="card compare-missing" role="note">
                    {MSG.noDataForCollege(i + 1)}
                  </div>
                ),
              )}
            </div>
          </details>
        </>
      ) : null}
    </div>
  );
}
