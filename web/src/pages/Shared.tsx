import type { SharedCollege, SharedView } from '@ct/contracts';
import { INCOME_BANDS } from '@ct/contracts/planning';
import { PLAN_LABELS, STATUS_LABELS } from '@ct/contracts/season';
import { useQuery } from '@tanstack/react-query';
import { progressLevel } from '../features/checklist/progress';
import { Link, useParams } from 'react-router';
import { api, ApiError, errorMessage } from '../api/client';
import { LoadingOverlay } from '../components/LoadingOverlay';
import { usePageMeta } from '../hooks/usePageMeta';
import { usePrivatePage } from '../hooks/usePrivatePage';
import { formatCalendarDate, formatMoney } from '../lib/format';
import '../features/share/share.css';

const dateTime = (iso: string) =>
  new Date(iso).toLocaleString('en-US', { dateStyle: 'long', timeStyle: 'short' });

/**
 * /shared/<token>: what a student chose to share with a parent or counselor, read only. Public (the
 * link is the key), with nothing to type into; an unknown, revoked or expired link says it no longer works.
 */
export default function SharedPage() {
  const { token = '' } = useParams();
  usePageMeta('Shared college list', 'A college list shared read only.');
  usePrivatePage();
  const shared = useQuery({
    queryKey: ['shared-view', token],
    // A link that no longer works will not start working on a second try; each try counts as a view.
    retry: (n, err) => !(err instanceof ApiError && err.status < 500) && n < 1,
    staleTime: 60_000,
    queryFn: async ({ signal }) => (await api.getSharedView({ token }, { signal })).data,
  });
  if (shared.isPending) return <LoadingOverlay message="Loading..." />;
  if (shared.isError)
    return (
      <section className="page shared-page">
        <h1>This link no longer works</h1>
        <p role="alert">{errorMessage(shared.error)}</p>
        <p>
          <Link to="/">Go to the home page</Link>
        </p>
      </section>
    );
  return <SharedSeason view={shared.data} />;
}

function SharedSeason({ view }: { view: SharedView }) {
  const has = (s: SharedView['scope'][number]) => view.scope.includes(s);
  const webcal = view.calendarPath
    ? `${window.location.origin}${view.calendarPath}`.replace(/^https?:\/\//, 'webcal://')
    : null;
  return (
    <section className="page shared-page">
      <h1>Shared by {view.sharedBy}, read only</h1>
      <p className="shared-meta">
        Data as of <time dateTime={view.asOf}>{dateTime(view.asOf)}</time>. This link works until{' '}
        <time dateTime={view.expiresAt}>{dateTime(view.expiresAt)}</time>.
      </p>

      <section className="card" aria-labelledby="shared-colleges">
        <h2 id="shared-colleges">Colleges</h2>
        {view.colleges.length ? (
          <ul className="shared-colleges">
            {view.colleges.map((c) => (
              <SharedCollegeCard key={c.collegeName} college={c} scope={view.scope} />
            ))}
          </ul>
        ) : (
          <p className="muted">No colleges on the list yet.</p>
        )}
      </section>

      {view.deadlines ? (
        <section className="card" aria-labelledby="shared-deadlines">
          <h2 id="shared-deadlines">Next deadlines</h2>
          {view.deadlines.length ? (
            <ul className="shared-deadlines">
              {view.deadlines.map((d) => (
                <li key={`${d.collegeName}|${d.type}|${d.date}`}>
                  <time dateTime={d.date}>{formatCalendarDate(d.date)}</time>{' '}
                  <span>
                    {d.collegeName}: {d.type}
                  </span>
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">No deadlines ahead.</p>
          )}
        </section>
      ) : null}

      {webcal && view.calendarPath ? (
        <section className="card" aria-labelledby="shared-calendar">
          <h2 id="shared-calendar">Calendar</h2>
          <p>Subscribe to these deadlines in your calendar app; it stays up to date while this link works.</p>
          <p className="shared-calendar-links">
            <a href={webcal}>Subscribe in your calendar app</a>
            <a href={view.calendarPath} download="deadlines.ics">
              Download the calendar file
            </a>
          </p>
        </section>
      ) : null}

      {view.notes ? (
        <section className="card" aria-labelledby="shared-notes">
          <h2 id="shared-notes">Notes</h2>
          {view.notes.length ? (
            <ul className="shared-notes">
              {view.notes.map((n) => (
                <li key={n.id}>
                  <h3>{n.title}</h3>
                  <p className="shared-text">{n.content}</p>
                  {n.deadline ? <p className="muted">Deadline {formatCalendarDate(n.deadline)}</p> : null}
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">No notes.</p>
          )}
        </section>
      ) : null}

      {view.essayDrafts ? (
        <section className="card" aria-labelledby="shared-drafts">
          <h2 id="shared-drafts">Essay drafts</h2>
          {view.essayDrafts.length ? (
            view.essayDrafts.map((d) => (
              <article key={d.prompt} className="shared-draft">
                <h3>{d.prompt}</h3>
                <p className="shared-text">{d.body}</p>
              </article>
            ))
          ) : (
            <p className="muted">No drafts.</p>
          )}
        </section>
      ) : null}

      {view.scores || has('income') || has('email') ? (
        <section className="card" aria-labelledby="shared-about">
          <h2 id="shared-about">About the student</h2>
          <dl className="shared-facts">
            {view.scores ? (
              <>
                <dt>GPA (unweighted)</dt>
                <dd>{view.scores.gpa ?? 'Not given'}</dd>
                <dt>SAT</dt>
                <dd>
                  {view.scores.satReadingWriting !== null && view.scores.satMath !== null
                    ? `${view.scores.satReadingWriting + view.scores.satMath} (reading and writing ${view.scores.satReadingWriting}, math ${view.scores.satMath})`
                    : 'Not given'}
                </dd>
                <dt>ACT</dt>
                <dd>{view.scores.act ?? 'Not given'}</dd>
              </>
            ) : null}
            {has('income') ? (
              <>
                <dt>Household income band</dt>
                <dd>
                  {view.incomeBand && (INCOME_BANDS as readonly string[]).includes(view.incomeBand)
                    ? view.incomeBand
                    : 'Not given'}
                </dd>
              </>
            ) : null}
            {has('email') ? (
              <>
                <dt>E-mail</dt>
                <dd>{view.email ?? 'Not given'}</dd>
              </>
            ) : null}
          </dl>
        </section>
      ) : null}
    </section>
  );
}

function SharedCollegeCard({ college: c, scope }: { college: SharedCollege; scope: SharedView['scope'] }) {
  const has = (s: SharedView['scope'][number]) => scope.includes(s);
  return (
    <li className="shared-college">
      <h3>{c.collegeName}</h3>
      <dl className="shared-facts">
        {has('plan') ? (
          <>
            <dt>Plan</dt>
            <dd>{c.plan ? PLAN_LABELS[c.plan] : 'Not chosen yet'}</dd>
          </>
        ) : null}
        {has('status') && c.status ? (
          <>
            <dt>Status</dt>
            <dd>{STATUS_LABELS[c.status]}</dd>
          </>
        ) : null}
        {has('deadlines') ? (
          <>
            <dt>Next deadline</dt>
            <dd>
              {c.nextDeadline ? (
                <>
                  {c.nextDeadline.type},{' '}
                  <time dateTime={c.nextDeadline.date}>{formatCalendarDate(c.nextDeadline.date)}</time>
                </>
              ) : (
                'None ahead'
              )}
            </dd>
          </>
        ) : null}
        {has('progress') && c.progress !== undefined ? (
          <>
            <dt>Checklist</dt>
            <dd>
              <span className="shared-progress">
                <progress
                  className={`level-${progressLevel(c.progress)}`}
                  max={100}
                  value={c.progress}
                  aria-label={`${c.collegeName} checklist`}
                />{' '}
                {c.progress}% done
              </span>
            </dd>
          </>
        ) : null}
        {has('aid') ? (
          <>
            <dt>Aid offer</dt>
            <dd>
              {c.aidOffer ? (
                <>
                  Cost of attendance {formatMoney(c.aidOffer.costOfAttendance)}; grants{' '}
                  {formatMoney(c.aidOffer.grants.reduce((s, g) => s + g.amount, 0))}; work-study{' '}
                  {formatMoney(c.aidOffer.workStudy)}; loans{' '}
                  {formatMoney(c.aidOffer.loans.reduce((s, l) => s + l.amount, 0))}
                </>
              ) : (
                'None yet'
              )}
            </dd>
          </>
        ) : null}
      </dl>
      {has('checklist') && c.checklist ? (
        <details className="shared-checklist">
          <summary>Checklist items</summary>
          {Object.entries(c.checklist).map(([section, items]) => (
            <div key={section}>
              <h4>{section.replace(/([A-Z])/g, ' $1').replace(/^./, (x) => x.toUpperCase())}</h4>
              <ul>
                {items.map((item, i) => {
                  const text =
                    'text' in item ? item.text : `${item.type}${item.date ? `: ${item.date}` : ''}`;
                  return (
                    <li key={i}>
                      {item.completed ? 'Done: ' : 'To do: '}
                      {text}
                    </li>
                  );
                })}
              </ul>
            </div>
          ))}
        </details>
      ) : null}
    </li>
  );
}
