import type { AidOffer, SeasonCollege } from '@ct/contracts';
import { LOAN_KINDS, LOAN_LABELS, type LoanKind } from '@ct/contracts/season';
import { useState, type FormEvent } from 'react';
import { errorMessage } from '../../api/client';
import { useRemoveAidOffer, useSaveAidOffer } from './api';
import { StatusBanner } from '../../components/StatusBanner';

type Line = { name: string; amount: string };
type LoanLine = { kind: LoanKind; amount: string };

/** A typed amount as whole dollars ("12,500" → 12500); blank is 0. Anything else goes to the server as is. */
const dollars = (s: string) => {
  const t = s.replace(/[$,\s]/g, '');
  return t === '' ? 0 : Number(t);
};

/**
 * An award letter's lines as the student types them in: the cost of attendance as stated (or that the
 * letter does not state it), grants and scholarships, work-study, loans by kind, and the "total aid" the
 * letter claims. The server checks the figures (no negative amounts, no grants above the cost).
 */
export function AidOfferForm({ college, onDone }: { college: SeasonCollege; onDone(): void }) {
  const o = college.aidOffer;
  const save = useSaveAidOffer(college.collegeName);
  const remove = useRemoveAidOffer(college.collegeName);
  const [cost, setCost] = useState(o?.costOfAttendance != null ? String(o.costOfAttendance) : '');
  const [noCost, setNoCost] = useState(o ? o.costOfAttendance === null : false);
  const [grants, setGrants] = useState<Line[]>(
    o?.grants.length
      ? o.grants.map((g) => ({ name: g.name, amount: String(g.amount) }))
      : [{ name: '', amount: '' }],
  );
  const [workStudy, setWorkStudy] = useState(o?.workStudy ? String(o.workStudy) : '');
  const [loans, setLoans] = useState<LoanLine[]>(
    o?.loans.map((l) => ({ kind: l.kind, amount: String(l.amount) })) ?? [],
  );
  const [totalAid, setTotalAid] = useState(o?.totalAidStated != null ? String(o.totalAidStated) : '');
  const name = college.collegeName;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const offer: AidOffer = {
      costOfAttendance: noCost ? null : dollars(cost),
      grants: grants
        .filter((g) => g.name.trim() || g.amount.trim())
        .map((g) => ({ name: g.name, amount: dollars(g.amount) })),
      workStudy: dollars(workStudy),
      loans: loans.filter((l) => l.amount.trim()).map((l) => ({ kind: l.kind, amount: dollars(l.amount) })),
      totalAidStated: totalAid.trim() ? dollars(totalAid) : null,
    };
    try {
      await save.mutateAsync(offer);
      onDone();
    } catch {
      // The server's message shows below; the saved offer is unchanged.
    }
  };

  const failed = save.isError ? save.error : remove.isError ? remove.error : null;
  return (
    <form
      className="season-editor aid-form"
      noValidate
      onSubmit={(e) => void submit(e)}
      aria-label={`Aid offer from ${name}`}
    >
      <fieldset>
        <legend>Cost of attendance, as the letter states it</legend>
        <div className="aid-line">
          <label>
            Cost of attendance ($ a year)
            <input
              inputMode="numeric"
              value={cost}
              disabled={noCost}
              onChange={(e) => setCost(e.target.value)}
            />
          </label>
          <label className="season-check">
            <input type="checkbox" checked={noCost} onChange={(e) => setNoCost(e.target.checked)} />
            The letter does not state it
          </label>
        </div>
      </fieldset>
      <fieldset>
        <legend>Grants and scholarships (money you do not pay back)</legend>
        {grants.map((g, i) => (
          <div className="aid-line" key={i}>
            <label>
              Grant or scholarship {i + 1}
              <input
                value={g.name}
                onChange={(e) =>
                  setGrants((all) => all.map((x, j) => (j === i ? { ...x, name: e.target.value } : x)))
                }
              />
            </label>
            <label>
              Amount ($)
              <input
                inputMode="numeric"
                value={g.amount}
                onChange={(e) =>
                  setGrants((all) => all.map((x, j) => (j === i ? { ...x, amount: e.target.value } : x)))
                }
              />
            </label>
            <button
              type="button"
              className="link"
              onClick={() => setGrants((all) => all.filter((_, j) => j !== i))}
            >
              Remove<span className="visually-hidden"> grant {i + 1}</span>
            </button>
          </div>
        ))}
        <button
          type="button"
          className="secondary small"
          onClick={() => setGrants((all) => [...all, { name: '', amount: '' }])}
        >
          Add a grant or scholarship
        </button>
      </fieldset>
      <fieldset>
        <legend>Work-study and loans</legend>
        <div className="aid-line">
          <label>
            Work-study ($)
            <input inputMode="numeric" value={workStudy} onChange={(e) => setWorkStudy(e.target.value)} />
          </label>
        </div>
        {loans.map((l, i) => (
          <div className="aid-line" key={i}>
            <label>
              Loan {i + 1}: kind
              <select
                value={l.kind}
                onChange={(e) =>
                  setLoans((all) =>
                    all.map((x, j) => (j === i ? { ...x, kind: e.target.value as LoanKind } : x)),
                  )
                }
              >
                {LOAN_KINDS.map((k) => (
                  <option key={k} value={k}>
                    {LOAN_LABELS[k]}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Amount ($)
              <input
                inputMode="numeric"
                value={l.amount}
                onChange={(e) =>
                  setLoans((all) => all.map((x, j) => (j === i ? { ...x, amount: e.target.value } : x)))
                }
              />
            </label>
            <button
              type="button"
              className="link"
              onClick={() => setLoans((all) => all.filter((_, j) => j !== i))}
            >
              Remove<span className="visually-hidden"> loan {i + 1}</span>
            </button>
          </div>
        ))}
        <button
          type="button"
          className="secondary small"
          onClick={() => setLoans((all) => [...all, { kind: 'federal-subsidized', amount: '' }])}
        >
          Add a loan
        </button>
        <div className="aid-line">
          <label>
            Total aid, if the letter states one ($)
            <input inputMode="numeric" value={totalAid} onChange={(e) => setTotalAid(e.target.value)} />
          </label>
        </div>
      </fieldset>
      {failed ? <StatusBanner kind="error">{errorMessage(failed)}</StatusBanner> : null}
      <div className="season-editor-actions">
        <button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving...' : 'Save aid offer'}
          <span className="visually-hidden"> from {name}</span>
        </button>
        {o ? (
          <button
            type="button"
            className="secondary"
            disabled={remove.isPending}
            onClick={() => void remove.mutateAsync().then(onDone, () => undefined)}
          >
            Remove aid offer<span className="visually-hidden"> from {name}</span>
          </button>
        ) : null}
        <button type="button" className="secondary" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
