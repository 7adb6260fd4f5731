import type { ListOutcome } from '@ct/contracts';
import { Link } from 'react-router';
import { errorMessage } from '../../api/client';
import { LoadError } from '../../components/LoadError';
import { formatPercent } from '../../lib/format';
import { SourceLink } from '../colleges/sources';
import { useStudentProfile } from '../money/api';
import { useListOutcomes } from './api';
import {
  FIRST_GEN_MISSING,
  POOLED_MISSING,
  RATE_LABELS,
  applicableRate,
  gapExplanation,
  gapSentence,
  rateFor,
  sortByApplicable,
  type RateKey,
} from './outcomes';
import './outcomes.css';

const pct = (v: number | null) => (v === null ? 'No data' : formatPercent(v, 1));

/** One rate as a row of the college's list: its label, its value (or why there is none). */
function Rate({
  label,
  value,
  note,
  mine,
}: {
  label: string;
  value: number | null;
  note?: string;
  mine?: boolean;
}) {
  return (
    <div className={`outcome-rate${mine ? ' mine' : ''}`}>
      <dt>
        {label}
        {mine ? <span className="outcome-mine"> (applies to you)</span> : null}
      </dt>
      <dd>
        <strong>{pct(value)}</strong>
        {value === null && note ? <span className="muted outcome-why"> {note}</span> : null}
      </dd>
    </div>
  );
}

function CollegeOutcome({ c, rateKey, firstGen }: { c: ListOutcome; rateKey: RateKey; firstGen: boolean }) {
  const two = c.gap === 'two-year' ? c.lessThan4yr : null;
  const pell = two ? two.pellGraduationRate : c.pellGraduationRate;
  const noPell = two ? two.noPellNoLoanGraduationRate : c.noPellNoLoanGraduationRate;
  const all = two ? two.allStudentsGraduationRate : c.allStudentsGraduationRate;
  const gap = gapSentence(pell, noPell);
  const why = gapExplanation(c);
  const headingId = `outcome-${c.scorecardId ?? c.collegeName.replace(/\W+/g, '-')}`;
  const mineIsFirstGen = firstGen && c.firstGenCompletionRate !== null;
  return (
    <li className="card outcome-college" aria-labelledby={headingId}>
      <h2 id={headingId}>{c.collegeName}</h2>
      {gap ? <p className="outcome-gap">{gap}</p> : null}
      {why ? <p className="muted outcome-missing">{why}</p> : null}
      {c.gap !== 'no-record' ? (
        <>
          <dl className="outcome-rates">
            <Rate
              label={RATE_LABELS.pellGraduationRate}
              value={pell}
              mine={!mineIsFirstGen && rateKey === 'pellGraduationRate'}
            />
            <Rate
              label={RATE_LABELS.noPellNoLoanGraduationRate}
              value={noPell}
              mine={!mineIsFirstGen && rateKey === 'noPellNoLoanGraduationRate'}
            />
            <Rate
              label={RATE_LABELS.allStudentsGraduationRate}
              value={all}
              mine={!mineIsFirstGen && rateKey === 'allStudentsGraduationRate'}
            />
            <Rate
              label={RATE_LABELS.firstGenCompletionRate}
              value={c.firstGenCompletionRate}
              note={FIRST_GEN_MISSING}
              mine={mineIsFirstGen}
            />
          </dl>
          <p className="outcome-source">
            {two ? 'Two-year rates (C150_L4_*). ' : null}
            Year: {c.year ?? 'not stated'}. {c.source ? <SourceLink source={c.source} /> : null}
          </p>
        </>
      ) : null}
    </li>
  );
}

/**
 * "Students like you" (issue 48): for every college on the list, how often students in the reader's
 * situation finish there, from the College Scorecard, side by side, sorted by the rate that applies to them.
 */
export function StudentsLikeYou() {
  const outcomes = useListOutcomes();
  const profile = useStudentProfile();
  const rateKey = rateFor(profile.data);
  const firstGen = profile.data?.firstGeneration === true;
  const list = outcomes.data ?? [];
  const sorted = sortByApplicable(list, rateKey, firstGen);
  const firstGenAnywhere = list.some((c) => c.firstGenCompletionRate !== null);
  const said = profile.data?.pellEligible !== undefined && profile.data?.pellEligible !== null;

  return (
    <section className="page students-like-you" aria-labelledby="sly-title">
      <h1 id="sly-title">Students like you</h1>
      <p>
        How often first-time, full-time students finish a degree within 150% of the usual time at each college
        on your list: Pell Grant students, students with neither a Pell Grant nor a subsidized loan, and
        everyone. Official College Scorecard figures, never estimates.
      </p>
      <p className="muted">
        {said ? (
          <>
            Sorted by the rate for {RATE_LABELS[rateKey].toLowerCase()}, as you chose on your{' '}
            <Link to="/profile#situation">profile</Link>.
          </>
        ) : (
          <>
            Sorted by the rate for all students. Say whether you expect a Pell Grant on your{' '}
            <Link to="/profile#situation">profile</Link> (optional and private) to sort by the rate for
            students like you.
          </>
        )}{' '}
        {firstGen && !firstGenAnywhere ? `${FIRST_GEN_MISSING} ` : null}
        {POOLED_MISSING}
      </p>
      {outcomes.isError ? (
        <LoadError
          what="The rates could not be loaded."
          error={outcomes.error}
          retrying={outcomes.isFetching}
          onRetry={() => void outcomes.refetch()}
        />
      ) : null}
      {profile.isError ? <p className="muted">{errorMessage(profile.error)}</p> : null}
      {outcomes.isPending ? (
        <p role="status">Loading the rates...</p>
      ) : list.length === 0 && !outcomes.isError ? (
        <p>
          Your list is empty. <Link to="/search">Search for a college</Link> and add it to see its rates here.
        </p>
      ) : (
        <ol className="outcome-list" aria-label="Your colleges, by the rate that applies to you">
          {sorted.map((c) => (
            <CollegeOutcome
              key={`${c.scorecardId ?? ''}${c.collegeName}`}
              c={c}
              rateKey={rateKey}
              firstGen={firstGen}
            />
          ))}
        </ol>
      )}
      <p className="muted">
        {sorted.filter((c) => applicableRate(c, rateKey, firstGen) === null).length
          ? 'Colleges without the rate that applies to you come last, in your list order.'
          : null}
      </p>
    </section>
  );
}
