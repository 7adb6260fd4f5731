import type { College, Enrichment, UnverifiedFact } from '@ct/contracts';
import { officialDataYears } from '@ct/contracts/planning';
import type { ReactNode, Ref } from 'react';
import { formatGatheredDate, formatText } from '../../lib/format';
import { ApplicationCost, FitBand } from '../fit';
import { MoneySummary } from '../money/MoneySummary';
import {
  AdmissionStatisticsSection,
  AdmittedStudentProfileSection,
  AliasesSection,
  DeadlinesSection,
  DemographicBreakdownSection,
  DemographicsSection,
  EssayPromptsSection,
  FinanceSection,
  LinksSection,
  PriceCalculatorSection,
  RequirementsSection,
  TipsSection,
} from './sections';
import { RegionOwner } from './regions';

/**
 * Everything known about one college, section by section, each fact with its source and gathered date.
 * `actions` sits beside the name (the search screen puts Add to Profile there).
 */
export function CollegeCard({
  college,
  actions,
  headingRef,
  status,
  privateToYou = false,
  unverified = [],
  ownRegions = false,
}: {
  college: College;
  /** Several cards on one page (Compare): each section's name says whose it is (see RegionOwner). */
  ownRegions?: boolean;
  actions?: ReactNode;
  /** The name heading, so a screen can move focus to a new result. */
  headingRef?: Ref<HTMLHeadingElement>;
  /** One line under the name about facts still coming (see EnrichmentLine). */
  status?: ReactNode;
  /** Only the students who asked for it see this college, until an admin reviews it. */
  privateToYou?: boolean;
  /** Facts only this student sees: an AI answer gave them and no official page vouched for them. */
  unverified?: readonly UnverifiedFact[];
}) {
  const { demographics: d, info, sources } = college;
  const place = [d.schoolCity, d.schoolState].filter(Boolean).join(', ');
  const updated = college.updatedAt ?? college.createdAt;
  const years = figureYears(college);
  return (
    <RegionOwner.Provider value={ownRegions ? college.name : null}>
      <article className="card college-card" aria-label={college.name} data-testid="college-card">
        <header className="college-card-header">
          <div>
            <h2 ref={headingRef} tabIndex={-1}>
              {college.name}
            </h2>
            <p className="muted">
              {place || formatText(null)}
              {years.length ? (
                <> · Figures from {years.join(', ')}</>
              ) : updated ? (
                <> · Data gathered {formatGatheredDate(updated)}</>
              ) : null}
            </p>
          </div>
          {actions}
        </header>
        {status}
        {privateToYou ? (
          <p className="banner warning" data-testid="private-college">
            Only you can see this college for now: no government record confirms it, so an admin will review
            it before other students can find it.
          </p>
        ) : null}
        {unverified.length ? <UnverifiedFacts facts={unverified} /> : null}
        <FitBand college={college} />
        <ApplicationCost college={college} />
        <MoneySummary demographics={d} sources={sources} />
        {college.missing.length ? <MissingFacts missing={college.missing} /> : null}
        <div className="college-sections">
          <AliasesSection aliases={college.aliases} sources={sources} />
          <LinksSection links={college.links} sources={sources} />
          <PriceCalculatorSection url={d.priceCalcUrl} sources={sources} />
          <DeadlinesSection deadlines={info.deadlines} sources={sources} />
          <EssayPromptsSection prompts={info.essayPrompts} meta={info.essayPromptMeta} sources={sources} />
          <RequirementsSection requirements={info.requirements} sources={sources} />
          <TipsSection tips={info.tips} sources={sources} />
          <AdmissionStatisticsSection
            stats={info.admissionStatistics}
            sources={sources}
            officialRate={d.admissionRate}
            officialScope={d.admissionRateScope}
            officialYear={officialDataYears(d.dataYears, sources).admissions}
          />
          <AdmittedStudentProfileSection profile={info.admittedStudentProfile} sources={sources} />
          <DemographicsSection demographics={d} sources={sources} />
          <DemographicBreakdownSection breakdown={d.demographics} sources={sources} />
          <FinanceSection finance={d.finance} sources={sources} />
        </div>
      </article>
    </RegionOwner.Provider>
  );
}

/**
 * Facts an AI answer gave that no page on the college's official website vouched for, or that contradict
 * the official data (ADR 0102): shown only to the student whose search gathered them, marked unverified,
 * links as plain text (never a link to follow).
 */
function UnverifiedFacts({ facts }: { facts: readonly UnverifiedFact[] }) {
  return (
    <section
      className="unverified-facts banner warning"
      aria-label="Unverified facts"
      data-testid="unverified-facts"
    >
      <h3>Unverified: only you see these</h3>
      <p>
        An AI answer gave these, but no page on the college&rsquo;s official website confirms them, or they
        differ from the official data shown on this card. An admin will check them before they are shared. Do
        not pay or send anything on their word.
      </p>
      {facts.map((f) => (
        <div key={f.id} className="unverified-fact" data-kind={f.kind}>
          <h4>{f.label} (unverified)</h4>
          <ul>
            {f.items.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
          <p className="muted">
            {f.reason}
            {f.sourceUrl ? <> Named source: {f.sourceUrl}</> : null}
          </p>
        </div>
      ))}
    </section>
  );
}

/** What could not be gathered, folded into one line the student can open. */
function MissingFacts({ missing }: { missing: readonly string[] }) {
  return (
    <details className="missing-facts">
      <summary>
        {missing.length === 1 ? 'One fact' : `${missing.length} facts`} could not be gathered (see why)
      </summary>
      <ul>
        {missing.map((m) => (
          <li key={m}>{m}</li>
        ))}
      </ul>
    </details>
  );
}

/**
 * The one status line of a card whose facts from the college's own pages are coming, could not be
 * gathered, or need an AI key: nothing when there is nothing to say.
 */
export function EnrichmentLine({ enrichment }: { enrichment: Enrichment }) {
  if (!enrichment.message) return null;
  return (
    <p
      className={`enrichment-line enrichment-${enrichment.state}`}
      role="status"
      data-testid="enrichment-status"
      data-state={enrichment.state}
    >
      {enrichment.state === 'gathering' ? <span className="spinner small" aria-hidden="true" /> : null}
      {enrichment.message}
    </p>
  );
}

/**
 * The academic years the card's government figures describe ("2020-21", "2021-22"), from the document's
 * data years and its sources' years: the header states these, not the day the data was loaded.
 */
export function figureYears(college: College): string[] {
  const found = new Set<string>();
  for (const y of Object.values(college.demographics.dataYears ?? {})) if (y) found.add(y);
  for (const s of Object.values(college.sources)) if (s.dataYear) found.add(s.dataYear);
  return [...found].filter((y) => /^\d{4}-\d{2}$/.test(y)).sort();
}
