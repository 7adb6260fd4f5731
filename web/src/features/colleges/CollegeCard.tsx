import type { College } from '@ct/contracts';
import type { ReactNode, Ref } from 'react';
import { formatGatheredDate, formatText } from '../../lib/format';
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

/**
 * Everything known about one college, section by section, each fact with its source and gathered date.
 * `actions` sits beside the name (the search screen puts Add to Profile there).
 */
export function CollegeCard({
  college,
  actions,
  headingRef,
}: {
  college: College;
  actions?: ReactNode;
  /** The name heading, so a screen can move focus to a new result. */
  headingRef?: Ref<HTMLHeadingElement>;
}) {
  const { demographics: d, info, sources } = college;
  const place = [d.schoolCity, d.schoolState].filter(Boolean).join(', ');
  const updated = college.updatedAt ?? college.createdAt;
  return (
    <article className="card college-card" aria-label={college.name} data-testid="college-card">
      <header className="college-card-header">
        <div>
          <h2 ref={headingRef} tabIndex={-1}>
            {college.name}
          </h2>
          <p className="muted">
            {place || formatText(null)}
            {updated ? <> · Data gathered {formatGatheredDate(updated)}</> : null}
          </p>
        </div>
        {actions}
      </header>
      <MoneySummary demographics={d} />
      {college.missing.length ? (
        <div className="banner info">
          <p className="missing-title">Some facts could not be gathered:</p>
          <ul>
            {college.missing.map((m) => (
              <li key={m}>{m}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <div className="college-sections">
        <AliasesSection aliases={college.aliases} sources={sources} />
        <LinksSection links={college.links} sources={sources} />
        <PriceCalculatorSection url={d.priceCalcUrl} sources={sources} />
        <DeadlinesSection deadlines={info.deadlines} sources={sources} />
        <EssayPromptsSection prompts={info.essayPrompts} meta={info.essayPromptMeta} sources={sources} />
        <RequirementsSection requirements={info.requirements} sources={sources} />
        <TipsSection tips={info.tips} sources={sources} />
        <AdmissionStatisticsSection stats={info.admissionStatistics} sources={sources} />
        <AdmittedStudentProfileSection profile={info.admittedStudentProfile} sources={sources} />
        <DemographicsSection demographics={d} sources={sources} />
        <DemographicBreakdownSection breakdown={d.demographics} sources={sources} />
        <FinanceSection finance={d.finance} sources={sources} />
      </div>
    </article>
  );
}
