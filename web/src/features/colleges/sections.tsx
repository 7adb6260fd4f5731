import type { CollegeInfo, Deadline, DemographicBreakdown, Demographics, Finance } from '@ct/contracts';
import { NET_PRICE_BANDS } from '@ct/contracts/constants';
import { sourceYear } from '@ct/contracts/planning';
import { useId, type ReactNode } from 'react';
import { Countdown } from '../../components/Countdown';
import { ExternalLink } from '../../components/ExternalLink';
import {
  formatCalendarDate,
  formatCount,
  formatMoney,
  formatNetPrice,
  formatPercent,
  formatRatio,
  formatText,
  formatValue,
  grantsOrLoansKind,
  isMissing,
  linkLabel,
  NO_INFO,
  safeUrl,
} from '../../lib/format';
import { BreakdownChart, NetPriceChart } from '../charts';
import { OwnerSuffix } from './regions';
import { FactSource, type Sources } from './sources';
import './college-card.css';

/** Marks a value the college data does not have, so it reads (and can be styled) as missing. */
function Shown({ text }: { text: string }) {
  return text === NO_INFO ? <span className="no-info">{NO_INFO}</span> : <>{text}</>;
}

/**
 * One titled block of the college card, with the source of its facts under the title. A section with
 * nothing to show (`folded`) is one quiet line: its title and "No Info Found".
 */
export function CardSection({
  title,
  path,
  sources,
  className,
  folded = false,
  children,
}: {
  title: string;
  /** Fact path of the section in `College.sources`, e.g. "info.deadlines". */
  path: string;
  sources?: Sources | undefined;
  className?: string;
  folded?: boolean;
  children: ReactNode;
}) {
  const id = useId();
  if (folded)
    return (
      <section
        className={`college-section folded${className ? ` ${className}` : ''}`}
        aria-labelledby={id}
        data-folded="true"
      >
        <h3 id={id}>
          {title}
          <OwnerSuffix />
        </h3>{' '}
        <span className="no-info">{NO_INFO}</span>
      </section>
    );
  return (
    <section className={`college-section${className ? ` ${className}` : ''}`} aria-labelledby={id}>
      <h3 id={id}>
        {title}
        <OwnerSuffix />
      </h3>
      <FactSource sources={sources} path={path} />
      {children}
    </section>
  );
}

export interface Fact {
  label: string;
  /** Fact path in `College.sources`. */
  path: string;
  /** Already formatted; "No Info Found" when missing. */
  text: string;
  /** A link to show instead of the plain text. */
  href?: string | null;
  /** Where and when the figure is from, in words, when the page must say so beside it. */
  note?: string;
  /** The fact says where it is from in its own words (`note`, or the line above): no source line. */
  noSource?: boolean;
}

/** True when no fact of the list has a value (the section folds to one line). */
export const allMissing = (facts: readonly Fact[]) => facts.every((f) => f.text === NO_INFO);

/** True when a list of strings has nothing to show. */
export const noItems = (items: readonly string[] | null | undefined) =>
  !(items ?? []).some((s) => !isMissing(s));

/** Label/value rows, each with its own source when it differs from the section's. */
export function FactList({
  facts,
  sources,
  sectionPath,
}: {
  facts: Fact[];
  sources?: Sources | undefined;
  /** The section's own path: a fact whose source is the section's does not repeat it. */
  sectionPath?: string | undefined;
}) {
  return (
    <dl className="fact-list">
      {facts.map((f) => (
        <div className="fact" key={f.path}>
          <dt>{f.label}</dt>
          <dd>
            {f.href ? <ExternalLink href={f.href}>{f.text}</ExternalLink> : <Shown text={f.text} />}
            {f.note ? <span className="fact-note">{f.note}</span> : null}
            {f.noSource ? null : <FactSource sources={sources} path={f.path} sectionPath={sectionPath} />}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** A list of strings (aliases, tips, prompts), or "No Info Found" when empty. */
export function StringList({
  items,
  path,
  sources,
  render,
}: {
  items: readonly string[] | null | undefined;
  path: string;
  sources?: Sources | undefined;
  render?: (item: string, index: number) => ReactNode;
}) {
  const shown = (items ?? []).filter((s) => !isMissing(s));
  if (!shown.length) return <p className="no-info">{NO_INFO}</p>;
  return (
    <ul className="fact-items">
      {shown.map((item, i) => (
        <li key={`${i}-${item}`}>
          {render ? render(item, i) : item}
          <FactSource sources={sources} path={`${path}.${i}`} sectionPath={path} />
        </li>
      ))}
    </ul>
  );
}

export function AliasesSection({
  aliases,
  sources,
}: {
  aliases: readonly string[];
  sources?: Sources | undefined;
}) {
  return (
    <CardSection title="Aliases" path="aliases" sources={sources} folded={noItems(aliases)}>
      <StringList items={aliases} path="aliases" sources={sources} />
    </CardSection>
  );
}

/** Helpful links; only http(s) links are made clickable, since they were gathered from the web. */
export function LinksSection({
  links,
  sources,
  path = 'links',
}: {
  links: readonly string[];
  sources?: Sources | undefined;
  path?: string;
}) {
  return (
    <CardSection title="Helpful Links" path={path} sources={sources} folded={noItems(links)}>
      <StringList
        items={links}
        path={path}
        sources={sources}
        render={(link) => <ExternalLink href={link} />}
      />
    </CardSection>
  );
}

export function PriceCalculatorSection({
  url,
  sources,
}: {
  url: string | null;
  sources?: Sources | undefined;
}) {
  const href = safeUrl(url);
  return (
    <CardSection title="Price Calculator" path="demographics.priceCalcUrl" sources={sources} folded={!href}>
      {href ? (
        <p>
          <ExternalLink href={href}>Net price calculator</ExternalLink>
        </p>
      ) : (
        <p className="no-info">{NO_INFO}</p>
      )}
    </CardSection>
  );
}

/** Application deadlines, type and date; a deadline without a date is rolling. */
export function DeadlinesSection({
  deadlines,
  sources,
}: {
  deadlines: readonly Deadline[];
  sources?: Sources | undefined;
}) {
  const path = 'info.deadlines';
  return (
    <CardSection title="Deadlines" path={path} sources={sources} folded={!deadlines.length}>
      {deadlines.length ? (
        <dl className="fact-list">
          {deadlines.map((d, i) => (
            <div className="fact" key={`${i}-${d.type}`}>
              <dt>{formatText(d.type)}</dt>
              <dd>
                {d.date === null ? 'Rolling' : <Shown text={formatCalendarDate(d.date)} />}
                {d.date ? (
                  <>
                    {' '}
                    <Countdown date={d.date} />
                  </>
                ) : null}
                {d.note ? <span className="deadline-note muted"> ({d.note})</span> : null}
                <FactSource sources={sources} path={`${path}.${i}`} sectionPath={path} />
              </dd>
            </div>
          ))}
        </dl>
      ) : (
        <p className="no-info">{NO_INFO}</p>
      )}
    </CardSection>
  );
}

export function EssayPromptsSection({
  prompts,
  meta,
  sources,
}: {
  prompts: readonly string[];
  meta?: CollegeInfo['essayPromptMeta'];
  sources?: Sources | undefined;
}) {
  const limits = new Map((meta ?? []).map((m) => [m.prompt, m.wordLimit]));
  return (
    <CardSection title="Essay Prompts" path="info.essayPrompts" sources={sources} folded={noItems(prompts)}>
      <StringList
        items={prompts}
        path="info.essayPrompts"
        sources={sources}
        render={(p) => {
          const limit = limits.get(p);
          return (
            <>
              {p}
              {typeof limit === 'number' ? <span className="muted"> ({limit} words max)</span> : null}
            </>
          );
        }}
      />
    </CardSection>
  );
}

const GRID_REQUIREMENTS = [
  ['applicationFee', 'Application Fee'],
  ['personalEssay', 'Personal Essay'],
  ['writingSupplement', 'Writing Supplement'],
  ['counselorRecommendation', 'Counselor Recommendation'],
] as const;

/** Transcripts, SAT/ACT and teacher recommendations; both spellings of the last key occur in stored data. */
export function RequirementsSection({
  requirements,
  sources,
}: {
  requirements: CollegeInfo['requirements'] | null | undefined;
  sources?: Sources | undefined;
}) {
  const path = 'info.requirements';
  const r = (requirements ?? {}) as Record<string, string | null | undefined>;
  const teacherKey =
    isMissing(r.teacherRecommendations) && !isMissing(r.TeacherRecommendations)
      ? 'TeacherRecommendations'
      : 'teacherRecommendations';
  const facts: Fact[] = [
    { label: 'Transcripts', path: `${path}.transcripts`, text: formatText(r.transcripts) },
    { label: 'SAT/ACT', path: `${path}.SAT_ACT`, text: formatText(r.SAT_ACT) },
    {
      label: 'Teacher Recommendations',
      path: `${path}.${teacherKey}`,
      text: formatText(r[teacherKey]),
    },
    // From the Common App requirements grid: shown only for the colleges it lists.
    ...GRID_REQUIREMENTS.filter(([key]) => typeof r[key] === 'string').map(([key, label]) => ({
      label,
      path: `${path}.${key}`,
      text: formatText(r[key]),
    })),
  ];
  return (
    <CardSection title="Requirements" path={path} sources={sources} folded={allMissing(facts)}>
      <FactList sectionPath={path} sources={sources} facts={facts} />
    </CardSection>
  );
}

export function TipsSection({
  tips,
  sources,
  path = 'info.tips',
}: {
  tips: readonly string[];
  sources?: Sources | undefined;
  path?: string;
}) {
  return (
    <CardSection title="Tips" path={path} sources={sources} folded={noItems(tips)}>
      <StringList items={tips} path={path} sources={sources} />
    </CardSection>
  );
}

export function AdmissionStatisticsSection({
  stats,
  sources,
  path = 'info.admissionStatistics',
  officialRate,
  officialScope,
  officialYear,
}: {
  stats: CollegeInfo['admissionStatistics'] | null | undefined;
  sources?: Sources | undefined;
  path?: string;
  /** The College Scorecard's admission rate: it leads, with its source and year. */
  officialRate?: number | null | undefined;
  /** 'all-campuses': the official rate is that of all campuses sharing the OPE ID (ADM_RATE_ALL). */
  officialScope?: Demographics['admissionRateScope'];
  /** The year of the official rate (its document's data year, else its source's). */
  officialYear?: string | null | undefined;
}) {
  const own = stats?.overallAcceptanceRate;
  const official = typeof officialRate === 'number' ? officialRate : null;
  const year = officialYear ?? sourceYear(sources?.demographics);
  // The college's own figure, when it says something the official one does not.
  const ownDiffers = typeof own === 'number' && official !== null && Math.abs(official - own) >= SAME_RATE;
  const ownSame = typeof own === 'number' && official !== null && !ownDiffers;
  const ownPage = sourceWords(sources?.[path]);
  const facts: Fact[] =
    official !== null
      ? [
          {
            label: 'Acceptance Rate',
            path: 'demographics.admissionRate',
            text: `${formatPercent(official)}${officialScope === 'all-campuses' ? ' (all campuses)' : ''}`,
            note: `Official figure: College Scorecard, ${year ? `${year} data` : 'year not stated'}${ownSame ? `; the college’s own page gives the same${stats?.year ? ` (${stats.year})` : ''}` : ''}`,
          },
          // The official figure's year (the line above names its source).
          { label: 'Year', path: 'demographics.admissionRate.year', text: formatText(year), noSource: true },
          ...(ownDiffers
            ? [
                {
                  label: 'The college’s own figure',
                  path: `${path}.overallAcceptanceRate`,
                  text: formatPercent(own),
                  note: `${stats?.year ? `${stats.year}, ` : 'Cycle not stated, '}from the college’s own page${ownPage ? ` (${ownPage})` : ''}`,
                },
              ]
            : []),
        ]
      : [
          {
            label: 'Acceptance Rate',
            path: `${path}.overallAcceptanceRate`,
            text: formatPercent(own),
            ...(typeof own === 'number' ? { note: 'From the college’s own page' } : {}),
          },
          { label: 'Year', path: `${path}.year`, text: formatText(stats?.year) },
        ];
  return (
    <CardSection
      title="Admission Statistics"
      // The official figure leads: each line names its own source, none stands for the whole section.
      path={official !== null ? 'demographics.admissionRate' : path}
      sources={official !== null ? undefined : sources}
      folded={allMissing(facts)}
    >
      <FactList sectionPath={official !== null ? undefined : path} sources={sources} facts={facts} />
    </CardSection>
  );
}

/** Differences under half a tenth of a percentage point are rounding, not two figures. */
const SAME_RATE = 0.0005;

/** A source as a few words: its title, else its address. */
function sourceWords(source: { url: string; title?: string | undefined } | undefined): string | null {
  if (!source) return null;
  const words = source.title?.trim() || linkLabel(source.url);
  return words.length > 60 ? `${words.slice(0, 59)}…` : words;
}

export function AdmittedStudentProfileSection({
  profile,
  sources,
}: {
  profile: CollegeInfo['admittedStudentProfile'] | null | undefined;
  sources?: Sources | undefined;
}) {
  const path = 'info.admittedStudentProfile';
  const facts: Fact[] = [
    { label: 'GPA', path: `${path}.GPA`, text: formatText(profile?.GPA) },
    { label: 'SAT', path: `${path}.SAT`, text: formatText(profile?.SAT) },
    { label: 'Major', path: `${path}.Major`, text: formatText(profile?.Major) },
  ];
  return (
    <CardSection title="Admitted Student Profile" path={path} sources={sources} folded={allMissing(facts)}>
      <FactList sectionPath={path} sources={sources} facts={facts} />
    </CardSection>
  );
}

/** City, state, sizes, admission rate, student-faculty ratio (N:1) and graduation rate. */
export function DemographicsSection({
  demographics,
  sources,
  path = 'demographics',
}: {
  demographics: Demographics | null | undefined;
  sources?: Sources | undefined;
  path?: string;
}) {
  const d = demographics;
  const facts: Fact[] = [
    { label: 'City', path: `${path}.schoolCity`, text: formatText(d?.schoolCity) },
    { label: 'State', path: `${path}.schoolState`, text: formatText(d?.schoolState) },
    { label: 'Undergraduate Size', path: `${path}.schoolSize`, text: formatCount(d?.schoolSize) },
    { label: 'Graduate Size', path: `${path}.schoolGradSize`, text: formatCount(d?.schoolGradSize) },
    {
      label: 'Admission Rate',
      path: `${path}.admissionRate`,
      text: `${formatPercent(d?.admissionRate)}${d?.admissionRateScope === 'all-campuses' && typeof d.admissionRate === 'number' ? ' (all campuses)' : ''}`,
    },
    {
      label: 'Student-Faculty Ratio',
      path: `${path}.studentFacRatio`,
      text: formatRatio(d?.studentFacRatio),
    },
    {
      label: 'Graduation Rate',
      path: `${path}.graduationRate`,
      text: formatPercent(d?.graduationRate),
    },
    // Optional: only documents gathered with the Scorecard's ownership code have it.
    ...(d?.ownership
      ? [{ label: 'Ownership', path: `${path}.ownership`, text: formatText(d.ownership) }]
      : []),
  ];
  return (
    <CardSection title="Demographics" path={path} sources={sources} folded={allMissing(facts)}>
      <FactList sectionPath={path} sources={sources} facts={facts} />
    </CardSection>
  );
}

/** Smaller groups the Scorecard publishes; shown only when the document has them (older ones do not). */
const SMALL_GROUPS = [
  { key: 'aian', label: 'American Indian/Alaska Native' },
  { key: 'nhpi', label: 'Native Hawaiian/Pacific Islander' },
  { key: 'twoOrMore', label: 'Two or More Races' },
  { key: 'nonResident', label: 'Non-Resident' },
] as const;

/** Shares of undergraduates by group; "unknown" is shown as Others. */
export function DemographicBreakdownSection({
  breakdown,
  sources,
  path = 'demographics.demographics',
}: {
  breakdown: DemographicBreakdown | null | undefined;
  sources?: Sources | undefined;
  path?: string;
}) {
  const b = breakdown;
  const facts: Fact[] = [
    { label: 'White', path: `${path}.white`, text: formatPercent(b?.white) },
    { label: 'Black', path: `${path}.black`, text: formatPercent(b?.black) },
    { label: 'Asian', path: `${path}.asian`, text: formatPercent(b?.asian) },
    { label: 'Hispanic', path: `${path}.hispanic`, text: formatPercent(b?.hispanic) },
    { label: 'Others', path: `${path}.unknown`, text: formatPercent(b?.unknown) },
    { label: 'First-Generation', path: `${path}.firstGen`, text: formatPercent(b?.firstGen) },
    ...SMALL_GROUPS.filter((g) => typeof b?.[g.key] === 'number').map((g) => ({
      label: g.label,
      path: `${path}.${g.key}`,
      text: formatPercent(b?.[g.key]),
    })),
  ];
  return (
    <CardSection title="Demographic Breakdown" path={path} sources={sources} folded={allMissing(facts)}>
      <BreakdownChart breakdown={b} />
      <FactList sectionPath={path} sources={sources} facts={facts} />
    </CardSection>
  );
}

/** A net-price band as money: "30001-48000" → "$30,001-$48,000", "110001+" → "$110,001+". */
export function bandLabel(band: string): string {
  return band.replace(/\d+/g, (n) => formatMoney(Number(n)));
}

/** Family incomes, FAFSA, aid, costs, tuition, earnings and the five net-price bands. */
export function FinanceSection({
  finance,
  sources,
  path = 'demographics.finance',
}: {
  finance: Finance | null | undefined;
  sources?: Sources | undefined;
  path?: string;
}) {
  const f = finance;
  const facts: Fact[] = [
    {
      label: 'Average Family Income',
      path: `${path}.avgFamilyIncome`,
      text: formatMoney(f?.avgFamilyIncome),
    },
    {
      label: 'Median Family Income',
      path: `${path}.medianFamilyIncome`,
      text: formatMoney(f?.medianFamilyIncome),
    },
    {
      label: 'FAFSA Applications',
      path: `${path}.fafsaApplications`,
      text: formatCount(f?.fafsaApplications),
    },
    // The College Scorecard publishes no such figure (its D_PCTPELL_PCTFLOAN is the head count the Pell and
    // loan shares are taken of): shown only when a document has it from elsewhere.
    ...(typeof f?.studentsGrantsOrLoans === 'number'
      ? [
          {
            label: 'Students With Grants or Loans',
            path: `${path}.studentsGrantsOrLoans`,
            text: formatValue(grantsOrLoansKind(f.studentsGrantsOrLoans), f.studentsGrantsOrLoans),
          },
        ]
      : []),
    ...(typeof f?.pellGrantRate === 'number'
      ? [
          {
            label: 'Pell Grant Recipients',
            path: `${path}.pellGrantRate`,
            text: formatPercent(f.pellGrantRate),
          },
        ]
      : []),
    ...(typeof f?.federalLoanRate === 'number'
      ? [
          {
            label: 'Federal Loan Borrowers',
            path: `${path}.federalLoanRate`,
            text: formatPercent(f.federalLoanRate),
          },
        ]
      : []),
    { label: 'Cost of Attendance', path: `${path}.costAttendance`, text: formatMoney(f?.costAttendance) },
    { label: 'In-State Tuition', path: `${path}.inStateTuition`, text: formatMoney(f?.inStateTuition) },
    {
      label: 'Out-of-State Tuition',
      path: `${path}.outOfStateTuition`,
      text: formatMoney(f?.outOfStateTuition),
    },
    {
      label: 'Median Earnings (10 years after entry)',
      path: `${path}.medianEarnings`,
      text: formatMoney(f?.medianEarnings),
    },
    // Optional: only documents gathered with these Scorecard figures have them.
    ...(typeof f?.avgNetPrice === 'number'
      ? [{ label: 'Average Net Price', path: `${path}.avgNetPrice`, text: formatNetPrice(f.avgNetPrice) }]
      : []),
    ...(typeof f?.medianDebt === 'number'
      ? [{ label: 'Median Debt', path: `${path}.medianDebt`, text: formatMoney(f.medianDebt) }]
      : []),
    ...NET_PRICE_BANDS.map((band) => ({
      label: `Net Price (income ${bandLabel(band.label)})`,
      path: `${path}.${band.key}`,
      text: formatNetPrice(f?.[band.key]),
    })),
  ];
  return (
    <CardSection title="Financial Breakdown" path={path} sources={sources} folded={allMissing(facts)}>
      <NetPriceChart finance={f} />
      <FactList sectionPath={path} sources={sources} facts={facts} />
    </CardSection>
  );
}
