import type { MajorProfile } from '@ct/contracts';
import { MSG } from '@ct/contracts/messages';
import { useCallback, useId, useState, type FormEvent } from 'react';
import { api } from '../../api/client';
import { LoadingOverlay } from '../../components/LoadingOverlay';
import { SuggestInput } from '../../components/SuggestInput';
import { formatGatheredDate, formatMoney, NO_INFO, safeUrl, linkLabel } from '../../lib/format';
import { MAJOR_STAGE_TEXT, useMajorProfile } from './useMajorProfile';
import './majors.css';
import { StatusBanner } from '../../components/StatusBanner';

function show(v: string | number | null | undefined): string {
  if (v === null || v === undefined || v === '') return NO_INFO;
  return String(v);
}

/** The college publishes no figure per major: say the figure is for all its admitted students. */
function ScopeNote({ scope }: { scope: 'major' | 'college' | undefined }) {
  return scope === 'college' ? <span className="major-scope"> (all admitted students)</span> : null;
}

function Stats({ profile }: { profile: MajorProfile }) {
  const fos = profile.fieldOfStudy;
  return (
    <div className="major-stats" aria-live="polite">
      <h3>
        {profile.major} at {profile.collegeName}
      </h3>
      <dl className="major-figures">
        <div>
          <dt>Average weighted GPA</dt>
          <dd>
            {show(profile.average_weighted_gpa)}
            <ScopeNote scope={profile.scope?.gpa} />
          </dd>
        </div>
        <div>
          <dt>Average SAT score</dt>
          <dd>
            {show(profile.average_sat_score)}
            <ScopeNote scope={profile.scope?.sat} />
          </dd>
        </div>
        {fos ? (
          <>
            <div>
              <dt>Program offered (College Scorecard)</dt>
              <dd>{fos.programOffered === null ? NO_INFO : fos.programOffered ? 'Yes' : 'Not listed'}</dd>
            </div>
            <div>
              <dt>Median earnings after graduation</dt>
              <dd>{formatMoney(fos.medianEarnings)}</dd>
            </div>
            <div>
              <dt>Median debt at graduation</dt>
              <dd>{formatMoney(fos.medianDebt)}</dd>
            </div>
          </>
        ) : null}
      </dl>
      <h4>Extracurriculars</h4>
      {profile.extracurriculars.length ? (
        <ul>
          {profile.extracurriculars.map((x) => (
            <li key={x}>{x}</li>
          ))}
        </ul>
      ) : (
        <p className="muted">{MSG.noExtracurriculars}</p>
      )}
      <h4>Essay topics</h4>
      {profile.essaytopics.length ? (
        <ul>
          {profile.essaytopics.map((x) => (
            <li key={x}>{x}</li>
          ))}
        </ul>
      ) : (
        <p className="muted">{MSG.noEssayTopics}</p>
      )}
      <h4>Description</h4>
      <p>{profile.description || NO_INFO}</p>
      {profile.missing?.length ? (
        <p className="muted">Could not be gathered: {profile.missing.join('; ')}.</p>
      ) : null}
      <p className="major-sources muted">
        Gathered on {formatGatheredDate(profile.gatheredAt)}
        {profile.sources.length ? ' from ' : '.'}
        {profile.sources.map((s, i) => {
          const url = safeUrl(s.url);
          return (
            <span key={s.url}>
              {i ? ', ' : ''}
              {url ? (
                <a href={url} target="_blank" rel="noopener noreferrer">
                  {s.title || linkLabel(url)}
                </a>
              ) : (
                s.title || s.url
              )}
            </span>
          );
        })}
        {profile.sources.length ? '.' : ''} Figures are gathered from public pages; check them with the
        college.
      </p>
    </div>
  );
}

/** The dashboard's major stats panel for the selected college. */
export function MajorStatsPanel({ collegeName }: { collegeName: string | null }) {
  const inputId = useId();
  const [major, setMajor] = useState('');
  const [suggesting, setSuggesting] = useState(false);
  const [suggestError, setSuggestError] = useState<string | null>(null);
  const { phase, lookUp } = useMajorProfile(collegeName);
  const loading = phase.kind === 'loading';

  const fetchSuggestions = useCallback(async (query: string, signal: AbortSignal) => {
    setSuggestError(null);
    const res = await api.getMajorSuggestions({ query }, { signal });
    // No match is as unhelpful as a failure: say so the same way.
    if (!res.suggestions.length) throw new Error('no suggestions');
    return res.suggestions;
  }, []);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!collegeName || loading) return;
    setSuggestError(null);
    lookUp(major);
  };

  return (
    <section className="card dashboard-panel major-panel" aria-labelledby={`${inputId}-title`}>
      <h2 id={`${inputId}-title`}>Major stats</h2>
      {collegeName ? (
        <p className="muted">Look up a major at {collegeName}.</p>
      ) : (
        <p className="muted">Select a college to look up its major stats.</p>
      )}
      <form className="major-form" onSubmit={submit} aria-label="Major stats">
        <SuggestInput
          id={inputId}
          label="Major"
          value={major}
          onChange={(v) => {
            setMajor(v);
            setSuggestError(null);
          }}
          fetchSuggestions={fetchSuggestions}
          onFetchError={(q) => setSuggestError(MSG.cannotFetchSuggestionsFor(q))}
          onLoadingChange={setSuggesting}
          placeholder="e.g. Computer Science"
          disabled={loading || !collegeName}
          required
        />
        <button type="submit" disabled={loading || suggesting || !collegeName}>
          Get Major Stats
        </button>
      </form>
      {suggestError ? <StatusBanner kind="warning">{suggestError}</StatusBanner> : null}
      {loading ? <LoadingOverlay detail={MAJOR_STAGE_TEXT[phase.stage] ?? MAJOR_STAGE_TEXT.running} /> : null}
      {phase.kind === 'error' ? <StatusBanner kind="error">{phase.message}</StatusBanner> : null}
      {phase.kind === 'found' ? <Stats profile={phase.profile} /> : null}
    </section>
  );
}
