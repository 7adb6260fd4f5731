import type { SeasonCollege } from '@ct/contracts';
import { daysBetween } from '@ct/contracts/planning';
import { ED_RULE, isAdmitted, PLAN_LABELS, STATUS_LABELS } from '@ct/contracts/season';
import { useQueryClient } from '@tanstack/react-query';
import { memo, useDeferredValue, useState } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../api/client';
import { useUid } from '../../api/keys';
import { prefetchAhead } from '../../api/prefetch';
import { Countdown } from '../../components/Countdown';
import { LoadError } from '../../components/LoadError';
import { formatCalendarDate, safeUrl } from '../../lib/format';
import { wordCountText } from '../essays/workspace';
import { draftsQuery, myPromptsQuery, useDrafts, useMyPrompts } from '../essays/drafts';
import { studentProfileQuery, useStudentProfile } from '../money/api';
import { moneyFigures } from '../money/money';
import {
  academicProfileQuery,
  ApplicationCostSummary,
  FitBand,
  fitOf,
  ListBalanceNote,
  useAcademicProfile,
} from '../fit';
import { AdmittedComparison } from './AdmittedComparison';
import { AidOfferForm } from './AidOfferForm';
import { ApplicationEditor } from './ApplicationEditor';
import { seasonQuery, useCollegeDocuments, useDemographicsOf, useSeason } from './api';
import { progressLevel } from '../checklist/progress';
import { essayProgress } from './season';
import { ListControls } from '../list-view/ListControls';
import { applyListView, useListView } from '../list-view/listView';
import './season.css';

type Open = { college: string; what: 'application' | 'aid' } | null;

/**
 * Asks for what the overview shows of the student (the season, prompts, drafts, money and academic
 * profiles) while the dashboard still waits for the list, so they come beside it and not after it. In
 * the render, as React Query's usePrefetchQuery does, without subscribing: the dashboard does not redraw
 * when they arrive. Nothing is asked for twice: a query already cached or under way is left alone, and
 * the overview mounting a moment later takes the answers as they are (api/prefetch.ts).
 */
export function usePrefetchOverview(when: boolean): void {
  const qc = useQueryClient();
  const uid = useUid();
  if (!uid || !when) return;
  prefetchAhead(qc, seasonQuery(uid));
  prefetchAhead(qc, myPromptsQuery(uid));
  prefetchAhead(qc, draftsQuery(uid));
  prefetchAhead(qc, studentProfileQuery(uid));
  prefetchAhead(qc, academicProfileQuery(uid));
}

/**
 * The season at a glance, the dashboard's view while no college is selected: every college of the list
 * with its plan, next deadline and countdown, checklist, essays, recommenders, cost for the student and
 * status. A table on wide screens and one compact card per college on a phone; sortable by next deadline.
 * Each row opens its application (status through to enrollment, dates, portal) and its aid offer; the
 * admitted colleges are compared side by side below. A student with no college is sent to Search.
 */
export function SeasonOverview({
  listed,
  onSelect,
}: {
  /** The names on the student's list, as the dashboard has them. */
  listed: readonly string[];
  onSelect(name: string): void;
}) {
  const season = useSeason();
  const prompts = useMyPrompts();
  const drafts = useDrafts();
  const profile = useStudentProfile().data ?? null;
  // Each college's figures are asked for as soon as the list is known (the dashboard has it already),
  // not after the season: one step less before the overview is complete.
  const names = [...new Set([...listed, ...(season.data?.colleges ?? []).map((c) => c.collegeName)])];
  const demo = useDemographicsOf(names);
  const docs = useCollegeDocuments(names);
  const academic = useAcademicProfile().data ?? null;
  // A dozen answers arrive one by one, and each would redraw the whole overview at once: the overview is
  // drawn as a deferred update instead, in short slices, so a slow phone stays responsive meanwhile. The
  // first drawing too (the answers asked for beside the list are often in by then): it starts from the
  // loading line, never as one long task.
  const view = useDeferredValue(
    { season, prompts, drafts, profile, names, demo, docs, academic, onSelect },
    null,
  );
  return view ? <SeasonView {...view} /> : <SeasonLoading />;
}

const SeasonLoading = () => (
  <p className="muted" role="status">
    Loading your season...
  </p>
);

type SeasonViewProps = {
  season: ReturnType<typeof useSeason>;
  prompts: ReturnType<typeof useMyPrompts>;
  drafts: ReturnType<typeof useDrafts>;
  profile: NonNullable<ReturnType<typeof useStudentProfile>['data']> | null;
  /** The colleges `demo` and `docs` answer for, in their order. */
  names: readonly string[];
  demo: ReturnType<typeof useDemographicsOf>;
  docs: ReturnType<typeof useCollegeDocuments>;
  academic: NonNullable<ReturnType<typeof useAcademicProfile>['data']> | null;
  onSelect(name: string): void;
};

const SeasonView = memo(function SeasonView({
  season,
  prompts,
  drafts,
  profile,
  names,
  demo,
  docs,
  academic,
  onSelect,
}: SeasonViewProps) {
  const [listView] = useListView();
  const [open, setOpen] = useState<Open>(null);
  const colleges = season.data?.colleges ?? [];

  if (season.isPending) return <SeasonLoading />;
  if (season.isError && !season.data)
    return (
      <LoadError
        what="Your season could not be loaded."
        error={season.error}
        retrying={season.isFetching}
        onRetry={() => void season.refetch()}
      />
    );
  const today = season.data.today;

  if (!colleges.length)
    return (
      <section className="card season-empty" aria-labelledby="season-title">
        <h2 id="season-title">Your season at a glance</h2>
        <p>Add the colleges you are thinking about, and every deadline, essay and decision shows up here.</p>
        <Link className="button" to="/search">
          Search for colleges
        </Link>
      </section>
    );

  const promptsOf = new Map((prompts.data ?? []).map((p) => [p.collegeName, p.prompts]));
  const demoOf = new Map(names.map((name, i) => [name, demo[i]]));
  const docOf = new Map(names.map((name, i) => [name, docs[i]?.data ?? null]));
  // The student's filter and order (kept in the URL, shared with the sidebar).
  const rows = applyListView(
    colleges,
    listView,
    (c) => c.collegeName,
    (c) => {
      const doc = docOf.get(c.collegeName);
      return {
        status: c.application.status,
        nextDate: c.nextDate?.date ?? null,
        fit: doc ? fitOf(doc, academic).band : null,
      };
    },
  );
  const sorted = listView.sort === 'deadline';
  const loadedDocs = colleges.flatMap((c) => docOf.get(c.collegeName) ?? []);
  // The balance check: each college's band, and its net price for the student's income band.
  const balanceItems = colleges.flatMap((c) => {
    const doc = docOf.get(c.collegeName);
    if (!doc) return [];
    const cost = profile?.incomeBand ? moneyFigures(doc.demographics, profile)[0] : undefined;
    const admitted = isAdmitted(c.application.status) || c.application.status === 'enrolled';
    return [{ band: fitOf(doc, academic).band, netPrice: cost?.value ?? null, admitted }];
  });
  const edAdmit = colleges.find((c) => c.application.plan === 'ED' && isAdmitted(c.application.status));
  const stillOpen = edAdmit
    ? colleges.filter(
        (c) =>
          c !== edAdmit && ['applying', 'submitted', 'deferred', 'waitlisted'].includes(c.application.status),
      )
    : [];
  const admitted = colleges.filter(
    (c) => isAdmitted(c.application.status) || c.application.status === 'enrolled',
  );

  return (
    <div className="season">
      <section className="card season-overview" aria-labelledby="season-title">
        <div className="panel-head">
          <h2 id="season-title">Your season at a glance</h2>
        </div>
        <ListControls idPrefix="season-list" shown={rows.length} total={colleges.length} />
        {edAdmit ? (
          <p className="banner season-ed" role="note">
            You were admitted Early Decision to <strong>{edAdmit.collegeName}</strong>. {ED_RULE}
            {stillOpen.length ? ` Withdraw: ${stillOpen.map((c) => c.collegeName).join(', ')}.` : ''}
          </p>
        ) : null}
        <table className="season-table">
          <caption className="visually-hidden">
            {rows.length === colleges.length
              ? 'Every college on your list'
              : 'Colleges matching your filters'}
            {sorted ? ', soonest deadline first' : ''}
          </caption>
          <thead>
            <tr>
              <th scope="col">College</th>
              <th scope="col">Plan</th>
              <th scope="col" aria-sort={sorted ? 'ascending' : 'none'}>
                Next deadline
              </th>
              <th scope="col">Checklist</th>
              <th scope="col">Essays</th>
              <th scope="col">Recommenders</th>
              <th scope="col">Cost for you</th>
              <th scope="col">Fit</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          {rows.map((c) => {
            const isOpen = open?.college === c.collegeName ? open.what : null;
            const d = demoOf.get(c.collegeName);
            const cost = d?.data ? moneyFigures(d.data.demographics, profile)[0]! : null;
            return (
              <tbody key={c.collegeId} className="season-college" data-college={c.collegeName}>
                <tr>
                  <th scope="row" data-label="College">
                    <button
                      type="button"
                      className="link season-name"
                      onClick={() => onSelect(c.collegeName)}
                    >
                      {c.collegeName}
                    </button>
                  </th>
                  <td data-label="Plan">
                    <PlanCell college={c} />
                  </td>
                  <td data-label="Next deadline" className="season-next">
                    {c.nextDate ? (
                      <>
                        <span>{c.nextDate.type}</span>{' '}
                        <time dateTime={c.nextDate.date}>
                          {c.nextDate.projected && c.nextDate.label
                            ? c.nextDate.label
                            : formatCalendarDate(c.nextDate.date)}
                        </time>{' '}
                        <Countdown date={c.nextDate.date} today={today} />
                        {c.nextDate.projected && c.nextDate.sourceUrl ? (
                          <>
                            {' '}
                            <a href={c.nextDate.sourceUrl} target="_blank" rel="noopener noreferrer">
                              Source
                            </a>
                          </>
                        ) : null}
                      </>
                    ) : (
                      <span className="muted">None ahead</span>
                    )}
                  </td>
                  <td data-label="Checklist">
                    <Progress
                      done={c.checklist.done}
                      total={c.checklist.total}
                      label={`${c.collegeName} checklist`}
                    />
                  </td>
                  <td data-label="Essays">
                    <EssaysCell
                      prompts={promptsOf.get(c.collegeName)}
                      drafts={drafts.data}
                      loading={prompts.isPending || drafts.isPending}
                    />
                  </td>
                  <td data-label="Recommenders">
                    {c.recommenders.total ? (
                      <>
                        {c.recommenders.asked} asked · {c.recommenders.submitted} submitted
                      </>
                    ) : (
                      <span className="muted">None yet</span>
                    )}
                  </td>
                  <td data-label="Cost for you">
                    {cost ? (
                      <>
                        <span className="money-value small">{cost.text}</span>
                        <span className="money-detail"> {cost.label.toLowerCase()}</span>
                      </>
                    ) : d?.isError ? (
                      <span className="muted">{errorMessage(d.error)}</span>
                    ) : (
                      <span className="muted">…</span>
                    )}
                  </td>
                  <td data-label="Fit">
                    {docOf.get(c.collegeName) ? (
                      <FitBand college={docOf.get(c.collegeName)!} compact />
                    ) : (
                      <span className="muted">…</span>
                    )}
                  </td>
                  <td data-label="Status">
                    <StatusCell college={c} today={today} />
                    <div className="season-actions">
                      <button
                        type="button"
                        className="secondary small"
                        aria-expanded={isOpen === 'application'}
                        onClick={() =>
                          setOpen(
                            isOpen === 'application' ? null : { college: c.collegeName, what: 'application' },
                          )
                        }
                      >
                        Update<span className="visually-hidden"> application to {c.collegeName}</span>
                      </button>
                      {isAdmitted(c.application.status) || c.aidOffer ? (
                        <button
                          type="button"
                          className="secondary small"
                          aria-expanded={isOpen === 'aid'}
                          onClick={() =>
                            setOpen(isOpen === 'aid' ? null : { college: c.collegeName, what: 'aid' })
                          }
                        >
                          {c.aidOffer ? 'Edit aid offer' : 'Enter aid offer'}
                          <span className="visually-hidden"> from {c.collegeName}</span>
                        </button>
                      ) : null}
                    </div>
                  </td>
                </tr>
                {isOpen ? (
                  <tr className="season-edit-row">
                    <td colSpan={9}>
                      {isOpen === 'application' ? (
                        <ApplicationEditor college={c} onDone={() => setOpen(null)} />
                      ) : (
                        <AidOfferForm college={c} onDone={() => setOpen(null)} />
                      )}
                    </td>
                  </tr>
                ) : null}
              </tbody>
            );
          })}
        </table>
        {balanceItems.length === colleges.length ? (
          <ListBalanceNote
            items={balanceItems}
            budget={academic?.yearlyBudget ?? null}
            incomeBandSet={!!profile?.incomeBand}
          />
        ) : null}
        {loadedDocs.length === colleges.length ? <ApplicationCostSummary colleges={loadedDocs} /> : null}
      </section>
      {admitted.length ? <AdmittedComparison colleges={admitted} /> : null}
    </div>
  );
});

function PlanCell({ college }: { college: SeasonCollege }) {
  const plan = college.application.plan;
  if (plan)
    return (
      <>
        {PLAN_LABELS[plan]}
        {plan === 'ED' ? <span className="season-binding"> (binding)</span> : null}
      </>
    );
  return (
    <span className="muted">
      Not chosen
      {college.plansOffered.length ? ` · offers ${college.plansOffered.join(', ')}` : ''}
    </span>
  );
}

function Progress({ done, total, label }: { done: number; total: number; label: string }) {
  const percent = total ? Math.round((done / total) * 100) : 0;
  return (
    <span className="season-progress">
      <progress
        className={`level-${progressLevel(percent)}`}
        max={total || 1}
        value={done}
        aria-label={label}
      />
      <span>
        {done}/{total} · {percent}%
      </span>
    </span>
  );
}

function EssaysCell({
  prompts,
  drafts,
  loading,
}: {
  prompts: Parameters<typeof essayProgress>[0] | undefined;
  drafts: Parameters<typeof essayProgress>[1] | undefined;
  loading: boolean;
}) {
  if (loading) return <span className="muted">…</span>;
  if (!prompts?.length) return <span className="muted">No prompts</span>;
  const e = essayProgress(prompts, drafts ?? []);
  return (
    <>
      {e.drafted} of {e.prompts} drafted
      {e.words.length ? (
        <ul className="season-words">
          {e.words.map((w) => (
            <li key={w.prompt} className={w.limit !== null && w.count > w.limit ? 'over' : undefined}>
              {wordCountText(w.count, w.limit)}
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}

function StatusCell({ college, today }: { college: SeasonCollege; today: string }) {
  const a = college.application;
  const portal = safeUrl(a.portalUrl);
  const e = college.expectedDecision;
  return (
    <div className="season-status">
      <span className={`season-badge status-${a.status}`}>{STATUS_LABELS[a.status]}</span>
      {a.submittedOn ? (
        <span className="season-sub">Submitted {formatCalendarDate(a.submittedOn)}</span>
      ) : null}
      {a.decisionOn ? (
        <span className="season-sub">Decision {formatCalendarDate(a.decisionOn)}</span>
      ) : e && (a.status === 'submitted' || a.status === 'deferred') ? (
        <span className="season-sub">
          Decision expected {formatCalendarDate(e.date)}
          {e.estimated ? ' (estimated)' : ''}
          {daysBetween(today, e.date) < 0 ? ' · check the portal' : ''}
        </span>
      ) : null}
      {portal ? (
        <span className="season-sub">
          <a href={portal} target="_blank" rel="noopener noreferrer">
            Applicant portal<span className="visually-hidden"> for {college.collegeName}</span>
          </a>
          {a.portalSetUp ? ' · set up ✓' : ' · not set up yet'}
        </span>
      ) : a.portalSetUp ? (
        <span className="season-sub">Portal set up ✓</span>
      ) : null}
    </div>
  );
}
