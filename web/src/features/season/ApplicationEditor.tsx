import type { SeasonCollege } from '@ct/contracts';
import {
  APPLICATION_PLANS,
  APPLICATION_STATUSES,
  ED_RULE,
  PLAN_LABELS,
  STATUS_LABELS,
  type ApplicationPlan,
  type ApplicationStatus,
} from '@ct/contracts/season';
import { useId, useState, type FormEvent } from 'react';
import { errorMessage } from '../../api/client';
import { useUpdateApplication, type ApplicationChange } from './api';
import { StatusBanner } from '../../components/StatusBanner';

const DATES = [
  ['submittedOn', 'Submitted on'],
  ['expectedDecisionOn', 'Expected decision (if the college says)'],
  ['decisionOn', 'Decision received on'],
  ['replyBy', 'Reply by (if not May 1)'],
  ['depositDue', 'Enrollment deposit due'],
  ['housingDue', 'Housing application due'],
] as const;
type DateField = (typeof DATES)[number][0];

/**
 * One application's plan, status, dates and applicant portal (a link and a "portal set up" tick; the
 * product never asks for a password). Saves what changed; a refusal says why and changes nothing.
 */
export function ApplicationEditor({ college, onDone }: { college: SeasonCollege; onDone(): void }) {
  const a = college.application;
  const id = useId();
  const save = useUpdateApplication(college);
  const [plan, setPlan] = useState<ApplicationPlan | ''>(a.plan ?? '');
  const [status, setStatus] = useState<ApplicationStatus>(a.status);
  const [dates, setDates] = useState<Record<DateField, string>>(() => ({
    submittedOn: a.submittedOn ?? '',
    expectedDecisionOn: a.expectedDecisionOn ?? '',
    decisionOn: a.decisionOn ?? '',
    replyBy: a.replyBy ?? '',
    depositDue: a.depositDue ?? '',
    housingDue: a.housingDue ?? '',
  }));
  const [portalUrl, setPortalUrl] = useState(a.portalUrl ?? '');
  const [portalSetUp, setPortalSetUp] = useState(a.portalSetUp);
  const offered = new Set(college.plansOffered);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const change: ApplicationChange = {};
    if ((plan || null) !== a.plan) change.plan = plan || null;
    if (status !== a.status) change.status = status;
    for (const [field] of DATES)
      if ((dates[field] || null) !== a[field]) change[field] = dates[field] || null;
    if ((portalUrl.trim() || null) !== a.portalUrl) change.portalUrl = portalUrl.trim() || null;
    if (portalSetUp !== a.portalSetUp) change.portalSetUp = portalSetUp;
    try {
      await save.mutateAsync(change);
      onDone();
    } catch {
      // The message shows below; nothing was changed.
    }
  };

  return (
    <form
      className="season-editor"
      onSubmit={(e) => void submit(e)}
      aria-label={`Application to ${college.collegeName}`}
    >
      <div className="season-editor-grid">
        <label>
          Plan
          <select value={plan} onChange={(e) => setPlan(e.target.value as ApplicationPlan | '')}>
            <option value="">Not chosen yet</option>
            {APPLICATION_PLANS.map((p) => (
              <option key={p} value={p}>
                {PLAN_LABELS[p]}
                {offered.size && !offered.has(p) ? ' (not in its deadlines)' : ''}
              </option>
            ))}
          </select>
        </label>
        <label>
          Status
          <select value={status} onChange={(e) => setStatus(e.target.value as ApplicationStatus)}>
            {APPLICATION_STATUSES.map((s) => (
              <option key={s} value={s}>
                {STATUS_LABELS[s]}
              </option>
            ))}
          </select>
        </label>
        {DATES.map(([field, label]) => (
          <label key={field}>
            {label}
            <input
              type="date"
              value={dates[field]}
              onChange={(e) => setDates((d) => ({ ...d, [field]: e.target.value }))}
            />
          </label>
        ))}
        <label className="season-portal">
          Applicant portal link
          <input
            type="url"
            inputMode="url"
            placeholder="https://"
            value={portalUrl}
            onChange={(e) => setPortalUrl(e.target.value)}
            aria-describedby={`${id}-portal`}
          />
          <span id={`${id}-portal`} className="muted small-text">
            Only the link: never type your portal password here.
          </span>
        </label>
        <label className="season-check">
          <input type="checkbox" checked={portalSetUp} onChange={(e) => setPortalSetUp(e.target.checked)} />
          Portal set up
        </label>
      </div>
      {plan === 'ED' ? <p className="season-rule">{ED_RULE}</p> : null}
      {save.isError ? <StatusBanner kind="error">{errorMessage(save.error)}</StatusBanner> : null}
      <div className="season-editor-actions">
        <button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving...' : 'Save'}
          <span className="visually-hidden"> application to {college.collegeName}</span>
        </button>
        <button type="button" className="secondary" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
