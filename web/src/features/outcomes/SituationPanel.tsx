import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../api/client';
import { StatusBanner } from '../../components/StatusBanner';
import { useStudentProfile } from '../money/api';
import { useSaveSituation } from './api';
import './outcomes.css';

type Answer = 'yes' | 'no' | '';
const toAnswer = (v: boolean | null | undefined): Answer => (v === true ? 'yes' : v === false ? 'no' : '');
const fromAnswer = (a: Answer): boolean | null => (a === 'yes' ? true : a === 'no' ? false : null);

function Question({
  name,
  legend,
  value,
  onChange,
}: {
  name: string;
  legend: string;
  value: Answer;
  onChange: (a: Answer) => void;
}) {
  return (
    <fieldset className="situation-question">
      <legend>{legend}</legend>
      {(
        [
          ['yes', 'Yes'],
          ['no', 'No'],
          ['', 'Rather not say'],
        ] as const
      ).map(([v, label]) => (
        <label key={v || 'unset'} className="situation-choice">
          <input type="radio" name={name} value={v} checked={value === v} onChange={() => onChange(v)} />{' '}
          {label}
        </label>
      ))}
    </fieldset>
  );
}

/**
 * "Students like you" on /profile (issue 48): whether the student expects a Pell Grant and is the first in
 * their family to attend college. Optional and private; it only picks the rate their colleges are sorted by.
 */
export function SituationPanel() {
  const q = useStudentProfile();
  const save = useSaveSituation();
  const [pell, setPell] = useState<Answer>('');
  const [firstGen, setFirstGen] = useState<Answer>('');
  const [status, setStatus] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);

  useEffect(() => {
    if (!q.data) return;
    setPell(toAnswer(q.data.pellEligible));
    setFirstGen(toAnswer(q.data.firstGeneration));
  }, [q.data]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setStatus(null);
    try {
      await save.mutateAsync({
        homeState: q.data?.homeState ?? null,
        incomeBand: q.data?.incomeBand ?? null,
        pellEligible: fromAnswer(pell),
        firstGeneration: fromAnswer(firstGen),
      });
      setStatus({ kind: 'success', text: 'Saved. Students like you now sorts your colleges by it.' });
    } catch (err) {
      setStatus({ kind: 'error', text: `Could not save: ${errorMessage(err)}` });
    }
  };

  return (
    <section className="card situation" id="situation" aria-labelledby="situation-title">
      <h2 id="situation-title">Students like you</h2>
      <p className="muted">
        Say whether you expect a Pell Grant and whether you are the first in your family to go to college, and{' '}
        <Link to="/students-like-you">Students like you</Link> sorts your colleges by how often students in
        your situation finish there. Both are optional and private: only you see them, and a link you share
        never shows them.
      </p>
      {q.isError ? <StatusBanner kind="error">{errorMessage(q.error)}</StatusBanner> : null}
      <form onSubmit={(e) => void submit(e)} aria-label="Students like you">
        <Question name="pell-eligible" legend="Do you expect a Pell Grant?" value={pell} onChange={setPell} />
        <Question
          name="first-generation"
          legend="Are you the first in your family to attend college?"
          value={firstGen}
          onChange={setFirstGen}
        />
        <button type="submit" disabled={save.isPending || !q.data}>
          {save.isPending ? 'Saving...' : 'Save'}
        </button>
      </form>
      {status ? (
        <StatusBanner kind={status.kind} as="p">
          {status.text}
        </StatusBanner>
      ) : null}
    </section>
  );
}
