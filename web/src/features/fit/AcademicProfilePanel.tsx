import {
  FEE_WAIVER_CHECKS,
  FEE_WAIVER_SOURCES,
  feeWaiverResult,
  type FeeWaiverCheck,
} from '@ct/contracts/fit';
import { useEffect, useState, type FormEvent } from 'react';
import { errorMessage } from '../../api/client';
import { useUserColleges } from '../../api/student';
import { useAcademicProfile, useSaveAcademicProfile } from './api';
import './fit.css';
import { ActionBanner } from '../../components/StatusBanner';

const FIELDS = [
  { key: 'satReadingWriting', label: 'SAT Reading and Writing (200-800)', step: 10 },
  { key: 'satMath', label: 'SAT Math (200-800)', step: 10 },
  { key: 'act', label: 'ACT composite (1-36)', step: 1 },
  { key: 'gpa', label: 'Unweighted GPA (0-4)', step: 0.01 },
  { key: 'yearlyBudget', label: 'What your family can pay a year ($)', step: 1 },
] as const;
type Key = (typeof FIELDS)[number]['key'];

/**
 * The academic profile on /profile: scores, GPA, a yearly budget and the colleges the student applies to
 * test-optional; all optional and private. Each college then shows its fit band; the list its balance.
 * With a fee-waiver self-check in our own words, linking the published criteria.
 */
export function AcademicProfilePanel() {
  const q = useAcademicProfile();
  const list = useUserColleges();
  const save = useSaveAcademicProfile();
  const [values, setValues] = useState<Record<Key, string>>({
    satReadingWriting: '',
    satMath: '',
    act: '',
    gpa: '',
    yearlyBudget: '',
  });
  const [optional, setOptional] = useState<string[]>([]);
  const [status, setStatus] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);

  useEffect(() => {
    if (!q.data) return;
    const d = q.data;
    const s = (n: number | null) => (n === null ? '' : String(n));
    setValues({
      satReadingWriting: s(d.satReadingWriting),
      satMath: s(d.satMath),
      act: s(d.act),
      gpa: s(d.gpa),
      yearlyBudget: s(d.yearlyBudget),
    });
    setOptional(d.testOptional);
  }, [q.data]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setStatus(null);
    const n = (k: Key) => (values[k].trim() === '' ? null : Number(values[k]));
    try {
      await save.mutateAsync({
        satReadingWriting: n('satReadingWriting'),
        satMath: n('satMath'),
        act: n('act'),
        gpa: n('gpa'),
        yearlyBudget: n('yearlyBudget'),
        testOptional: optional,
      });
      setStatus({ kind: 'success', text: 'Saved. Your colleges now show their fit for you.' });
    } catch (err) {
      setStatus({ kind: 'error', text: `Could not save: ${errorMessage(err)}` });
    }
  };

  return (
    <section className="card academic-profile" id="academic-profile" aria-labelledby="academic-profile-title">
      <h2 id="academic-profile-title">Your scores</h2>
      <p className="muted">
        Optional and private. Each college on your list compares your SAT sections or ACT composite with the
        middle half of its admitted students and says reach, target or likely, and why. GPA is kept for you
        but not compared: no public data gives colleges&apos; GPA ranges.
      </p>
      <form className="money-profile-form" onSubmit={(e) => void submit(e)} aria-label="Your scores">
        {FIELDS.map((f) => (
          <div className="field" key={f.key}>
            <label htmlFor={`academic-${f.key}`}>{f.label}</label>
            <input
              id={`academic-${f.key}`}
              type="number"
              inputMode="decimal"
              step={f.step}
              value={values[f.key]}
              disabled={q.isPending}
              onChange={(e) => setValues((v) => ({ ...v, [f.key]: e.target.value }))}
            />
          </div>
        ))}
        {list.data?.length ? (
          <fieldset className="field">
            <legend>Apply test-optional to</legend>
            {list.data.map((c) => (
              <label key={c.collegeId} className="checkbox">
                <input
                  type="checkbox"
                  checked={optional.includes(c.collegeName)}
                  onChange={(e) =>
                    setOptional((o) =>
                      e.target.checked ? [...o, c.collegeName] : o.filter((x) => x !== c.collegeName),
                    )
                  }
                />{' '}
                {c.collegeName}
              </label>
            ))}
          </fieldset>
        ) : null}
        <div className="field">
          <button type="submit" disabled={q.isPending || save.isPending}>
            {save.isPending ? 'Saving...' : 'Save'}
          </button>
        </div>
      </form>
      <ActionBanner banner={status} />
      <FeeWaiverCheck />
    </section>
  );
}

/** The fee-waiver self-check: the published criteria in our own words, and what ticking them means. */
export function FeeWaiverCheck() {
  const [ticked, setTicked] = useState<FeeWaiverCheck[]>([]);
  return (
    <fieldset className="fee-waiver" data-testid="fee-waiver">
      <legend>Could you apply for free?</legend>
      {FEE_WAIVER_CHECKS.map((c) => (
        <label key={c.id} className="checkbox">
          <input
            type="checkbox"
            checked={ticked.includes(c.id)}
            onChange={(e) =>
              setTicked((t) => (e.target.checked ? [...t, c.id] : t.filter((x) => x !== c.id)))
            }
          />{' '}
          {c.text}
        </label>
      ))}
      <ul className="fit-notes" aria-live="polite">
        {feeWaiverResult(ticked).map((r) => (
          <li key={r}>{r}</li>
        ))}
      </ul>
      <p className="muted">
        From the published criteria:{' '}
        <a href={FEE_WAIVER_SOURCES.commonApp.url} target="_blank" rel="noreferrer">
          {FEE_WAIVER_SOURCES.commonApp.title}
        </a>
        ,{' '}
        <a href={FEE_WAIVER_SOURCES.cssProfile.url} target="_blank" rel="noreferrer">
          {FEE_WAIVER_SOURCES.cssProfile.title}
        </a>
        .
      </p>
    </fieldset>
  );
}
