import type {
  College,
  CollegeFactsAnswer,
  CollegeInfo,
  DataYears,
  Deadline,
  Demographics,
  FactSourceKey,
  Source,
} from '@ct/contracts';
import { normaliseCollegeName } from '@ct/contracts/constants';
import { sourceYear } from '@ct/contracts/planning';
import { planTypeOf } from '@ct/contracts/season';
import type { CitedSource } from './openai.ts';
import { scorecardPageUrl, type GovernmentData } from './scorecard-fields.ts';
import {
  ANSWER_REQUIREMENTS,
  deadlineWords,
  heldDeadlines,
  heldRequirements,
  isOfficialSource,
  orderDeadlines,
  orderRequirements,
  sourcedDeadlines,
  writeDeadlines,
  type OrderedRequirements,
  type SourcedDeadline,
} from './source-order.ts';
import type { HeldFact } from './trust.ts';

export const SCORECARD_SOURCE_TITLE = 'College Scorecard, U.S. Department of Education';

/** Labels of the government figures, as a student reads them in College.missing. */
const GOVERNMENT_LABELS: Array<[string, (d: Demographics) => unknown]> = [
  ['City', (d) => d.schoolCity],
  ['State', (d) => d.schoolState],
  ['Undergraduate size', (d) => d.schoolSize],
  ['Graduate size', (d) => d.schoolGradSize],
  ['Admission rate', (d) => d.admissionRate],
  ['Student-faculty ratio', (d) => d.studentFacRatio],
  ['Net price calculator link', (d) => d.priceCalcUrl],
  ['Graduation rate', (d) => d.graduationRate],
  [
    'Demographic breakdown',
    (d) => {
      const b = d.demographics;
      return [b.white, b.black, b.asian, b.hispanic, b.unknown].some((v) => v === null) ? null : 1;
    },
  ],
  ['First-generation share', (d) => d.demographics.firstGen],
  ['Average family income', (d) => d.finance.avgFamilyIncome],
  ['Median family income', (d) => d.finance.medianFamilyIncome],
  ['FAFSA applications', (d) => d.finance.fafsaApplications],
  ['Cost of attendance', (d) => d.finance.costAttendance],
  ['In-state tuition', (d) => d.finance.inStateTuition],
  ['Out-of-state tuition', (d) => d.finance.outOfStateTuition],
  ['Median earnings 10 years after entry', (d) => d.finance.medianEarnings],
  [
    'Net prices by family income',
    (d) => {
      const f = d.finance;
      return [
        f.netPrice0to30000,
        f.netPrice30001to48000,
        f.netPrice48001to75000,
        f.netPrice75001to110000,
        f.netPrice110001plus,
      ].some((v) => v === null)
        ? null
        : 1;
    },
  ],
];
const ALL_GOVERNMENT = 'Demographics and finance';

/** True for a College.missing entry about government data (replaced when government data is refreshed). */
export function isGovernmentMissing(entry: string): boolean {
  return (
    entry.startsWith(ALL_GOVERNMENT) || GOVERNMENT_LABELS.some(([label]) => entry.startsWith(`${label} (`))
  );
}

/** The fact groups gathered from the college's own pages, their document path and label. */
const FACT_GROUPS = [
  { key: 'deadlines', path: 'info.deadlines', label: 'Deadlines', listed: true },
  { key: 'essayPrompts', path: 'info.essayPrompts', label: 'Essay prompts', listed: true },
  { key: 'requirements', path: 'info.requirements', label: 'Requirements', listed: true },
  { key: 'tips', path: 'info.tips', label: 'Tips', listed: true },
  {
    key: 'admissionStatistics',
    path: 'info.admissionStatistics',
    label: 'Admission statistics',
    listed: true,
  },
  {
    key: 'admittedStudentProfile',
    path: 'info.admittedStudentProfile',
    label: 'Admitted student profile',
    listed: true,
  },
  { key: 'aliases', path: 'aliases', label: 'Aliases', listed: false },
  { key: 'links', path: 'links', label: 'Helpful links', listed: false },
] as const;

export function emptyDemographics(): Demographics {
  return {
    schoolCity: null,
    schoolState: null,
    schoolSize: null,
    schoolGradSize: null,
    admissionRate: null,
    studentFacRatio: null,
    priceCalcUrl: null,
    graduationRate: null,
    demographics: { white: null, black: null, asian: null, hispanic: null, unknown: null, firstGen: null },
    finance: {
      avgFamilyIncome: null,
      medianFamilyIncome: null,
      fafsaApplications: null,
      studentsGrantsOrLoans: null,
      costAttendance: null,
      inStateTuition: null,
      outOfStateTuition: null,
      medianEarnings: null,
      netPrice0to30000: null,
      netPrice30001to48000: null,
      netPrice48001to75000: null,
      netPrice75001to110000: null,
      netPrice110001plus: null,
      graduationRate: null,
    },
  };
}

export function emptyInfo(): CollegeInfo {
  return {
    deadlines: [],
    essayPrompts: [],
    requirements: { transcripts: null, SAT_ACT: null, teacherRecommendations: null },
    tips: [],
    admissionStatistics: { overallAcceptanceRate: null, year: null },
    admittedStudentProfile: { GPA: null, SAT: null, Major: null },
  };
}

/** Deadlines and requirements from a local, citable source (the Common App requirements grid). */
export interface LocalFacts {
  deadlines: Deadline[];
  requirements: CollegeInfo['requirements'];
  source: { url: string; title: string };
}

export interface AssembleInput {
  /** The name the student asked for */
  requestedName: string;
  /** Name to store; defaults to the official name found (the caller disambiguates shared names) */
  name?: string | undefined;
  government: GovernmentData | null;
  /** Why there is no government data (shown in College.missing) */
  governmentReason?: string | undefined;
  facts: { answer: CollegeFactsAnswer; sources: CitedSource[] } | null;
  /** Why there are no college facts */
  factsReason?: string | undefined;
  local?: LocalFacts | null | undefined;
  /** ISO instant the data was gathered */
  gatheredAt: string;
}

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
const isHttp = (u: unknown): u is string => typeof u === 'string' && /^https?:\/\/\S+$/i.test(u.trim());
const text = (v: unknown, n = 2000): string | null =>
  typeof v === 'string' && v.trim() ? clip(v.trim(), n) : null;
const texts = (v: unknown, max: number, n = 2000): string[] =>
  Array.isArray(v)
    ? [...new Set(v.map((x) => text(x, n)).filter((x): x is string => !!x))].slice(0, max)
    : [];
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
function validDate(d: string): boolean {
  const m = DATE.exec(d);
  if (!m) return false;
  const dt = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return dt.getUTCMonth() === Number(m[2]) - 1 && dt.getUTCDate() === Number(m[3]);
}

/**
 * An admission cycle runs from August 1 to July 31: the one that starts in August 2026 takes the
 * applications of students entering in fall 2027. The coming two cycles, seen from `now`, are the one
 * under way and the next; their window runs from August 1 of the first to July 31 of the second.
 */
export function comingCycles(now: Date): { from: string; to: string; label: string } {
  const y = now.getUTCFullYear();
  const start = now.getUTCMonth() >= 7 ? y : y - 1; // months count from 0: 7 is August
  const yy = (n: number) => String(n % 100).padStart(2, '0');
  return {
    from: `${start}-08-01`,
    to: `${start + 2}-07-31`,
    label: `${start}-${yy(start + 1)} and ${start + 1}-${yy(start + 2)}`,
  };
}

/** Keeps the deadlines of the coming two admission cycles (and rolling ones, which have no date). */
export function withinComingCycles(deadlines: Deadline[], now: Date): Deadline[] {
  const { from, to } = comingCycles(now);
  return deadlines.filter((d) => d.date === null || (d.date >= from && d.date <= to));
}

function source(url: string, title: string | null | undefined, gatheredAt: string): Source {
  return { url: clip(url.trim(), 2000), ...(title ? { title: clip(title, 500) } : {}), gatheredAt };
}

function dedupeNames(names: string[], exclude: string): string[] {
  const seen = new Set([normaliseCollegeName(exclude)]);
  const out: string[] = [];
  for (const n of names) {
    const k = normaliseCollegeName(n);
    if (!k || seen.has(k)) continue;
    seen.add(k);
    out.push(n);
  }
  return out;
}

/**
 * Builds the College document from what the providers returned. Every value comes from a source that is
 * recorded in `sources` with the date it was gathered; what could not be gathered is listed in `missing`
 * with the reason. Nothing is estimated or filled in.
 */
export function assembleCollege(input: AssembleInput): {
  college: College;
  factsGathered: boolean;
  /** What the answer said against the official facts, held for an admin's review (source-order.ts) */
  held: HeldFact[];
} {
  const { government: gov, gatheredAt } = input;
  const answer = input.facts?.answer ?? null;
  const cited = new Map((input.facts?.sources ?? []).map((s) => [s.url, s.title]));
  const sources: Partial<Record<FactSourceKey, Source>> = {};
  const missing: string[] = [];
  const info = emptyInfo();

  const officialName = gov?.name ?? (answer?.found ? text(answer.officialName, 200) : null);
  const name = input.name ?? officialName ?? input.requestedName.trim();

  // Government data
  const demographics = gov ? gov.demographics : emptyDemographics();
  if (gov) {
    const s = source(scorecardPageUrl(gov.scorecardId), SCORECARD_SOURCE_TITLE, gatheredAt);
    sources.name = s;
    sources.demographics = s;
    sources['demographics.finance'] = s;
    for (const [label, get] of GOVERNMENT_LABELS) {
      if (get(demographics) === null) missing.push(`${label} (not published by the College Scorecard)`);
    }
  } else {
    missing.push(`${ALL_GOVERNMENT} (${input.governmentReason ?? 'not gathered'})`);
  }

  // College facts, each group kept only with the page it came from
  let aliases: string[] = gov?.aliases ?? [];
  let links: string[] = gov?.website ? [gov.website] : [];
  if (gov?.aliases.length) sources.aliases = sources.name!;
  let factsGathered = false;
  if (answer && answer.found) {
    factsGathered = true;
    if (!gov && officialName && input.facts?.sources[0]) {
      sources.name = source(input.facts.sources[0].url, input.facts.sources[0].title, gatheredAt);
    }
    for (const g of FACT_GROUPS) {
      const fact = answer[g.key];
      const used =
        fact.value !== null && isHttp(fact.sourceUrl)
          ? applyFact(g.key, fact.value, info, new Date(gatheredAt))
          : false;
      if (used === 'empty') continue;
      if (used === 'out-of-cycle') {
        const { label } = comingCycles(new Date(gatheredAt));
        missing.push(`${g.label} (only dates outside the ${label} admission cycles were found, so not kept)`);
        continue;
      }
      if (used) {
        const url = (fact.sourceUrl as string).trim();
        sources[g.path] = source(url, cited.get(url) ?? null, gatheredAt);
        if (g.key === 'aliases') aliases = [...aliases, ...texts(fact.value, 40, 200)];
        if (g.key === 'links') {
          const website = isHttp(answer.website) ? [answer.website.trim()] : [];
          links = [...links, ...website, ...texts(fact.value, 30).filter(isHttp)];
        }
        continue;
      }
      if (!g.listed) continue;
      missing.push(
        fact.value !== null
          ? `${g.label} (found without a source page, so not kept)`
          : `${g.label} (not found on the college's pages)`,
      );
    }
  } else {
    const reason =
      answer && !answer.found
        ? "the college's pages could not be found"
        : (input.factsReason ?? 'not gathered');
    for (const g of FACT_GROUPS) if (g.listed) missing.push(`${g.label} (${reason})`);
  }

  // The Common App grid's deadlines and requirements come first; the answer's fill what it does not state
  // (source-order.ts).
  const held: HeldFact[] = [];
  const local = input.local;
  if (local) {
    const s = source(local.source.url, local.source.title, gatheredAt);
    const official = local.deadlines.map((deadline) => ({ deadline, source: s }));
    if (official.length) {
      const page = sources['info.deadlines'];
      const fromAnswer = page ? info.deadlines.map((deadline) => ({ deadline, source: page })) : [];
      const ordered = orderDeadlines(official, fromAnswer, comingCycles(new Date(gatheredAt)).from);
      info.deadlines = writeDeadlines(ordered.deadlines, sources);
      const h = heldDeadlines(ordered.contradicting, page ?? null, official);
      if (h) held.push(h);
      removeMissing(missing, 'Deadlines');
    }
    const r = local.requirements;
    if (Object.values(r).some((v) => typeof v === 'string')) {
      const page = sources['info.requirements'];
      const ordered = orderRequirements(r, page ? info.requirements : {});
      info.requirements = writeRequirements(ordered, sources, s, () => page);
      const h = heldRequirements(ordered.contradicting, page ?? null, r, s);
      if (h) held.push(h);
      removeMissing(missing, 'Requirements');
    }
  }

  // A name kept apart by place ("Columbia College (Columbia, MO)") stays findable by its official name.
  if (officialName && name !== officialName) aliases = [officialName, ...aliases];
  const college: College = {
    name: clip(name, 200),
    aliases: dedupeNames(aliases, name),
    links: [...new Set(links)].slice(0, 30),
    createdAt: gatheredAt,
    updatedAt: gatheredAt,
    scorecardId: gov?.scorecardId ?? null,
    website: gov?.website ?? null,
    demographics,
    info,
    sources,
    missing,
  };
  return { college, factsGathered, held };
}

/**
 * Writes ordered requirements into `sources`: the section's source is the official one, and each field
 * the answer filled gets its page as its own source (`info.requirements.<field>`).
 */
function writeRequirements(
  ordered: OrderedRequirements,
  sources: Record<string, Source>,
  official: Source,
  answerSourceOf: (field: string) => Source | undefined,
): CollegeInfo['requirements'] {
  for (const k of Object.keys(sources)) if (k.startsWith('info.requirements.')) delete sources[k];
  sources['info.requirements'] = official;
  for (const f of ordered.answerFields) {
    const src = answerSourceOf(f);
    if (src) sources[`info.requirements.${f}`] = src;
  }
  return ordered.requirements;
}

function removeMissing(missing: string[], label: string): void {
  const i = missing.findIndex((m) => m.startsWith(`${label} (`));
  if (i >= 0) missing.splice(i, 1);
}

/** Copies one sanitised fact group into `info`; 'empty' when the value holds nothing usable. */
function applyFact(
  key: (typeof FACT_GROUPS)[number]['key'],
  value: unknown,
  info: CollegeInfo,
  now: Date,
): boolean | 'empty' | 'out-of-cycle' {
  switch (key) {
    case 'deadlines': {
      const list = Array.isArray(value) ? (value as Array<{ type?: unknown; date?: unknown }>) : [];
      const deadlines: Deadline[] = [];
      for (const d of list) {
        const said = text(d?.type, 100);
        if (!said) continue;
        // The words follow the plan type, never the answer's wording (source-order.ts).
        const type = deadlineWords(said);
        if (d.date === null) deadlines.push({ type, date: null });
        else if (typeof d.date === 'string' && validDate(d.date.trim()))
          deadlines.push({ type, date: d.date.trim() });
      }
      if (!deadlines.length) return false;
      // A date of a past cycle, or years ahead, is a page out of date or a mistake: never shown.
      const current = withinComingCycles(deadlines, now);
      if (!current.length) return 'out-of-cycle';
      info.deadlines = current.slice(0, 20);
      return true;
    }
    case 'essayPrompts': {
      const prompts = texts(value, 30, 3000);
      if (!prompts.length) return false;
      info.essayPrompts = prompts;
      return true;
    }
    case 'tips': {
      const tips = texts(value, 20, 1000);
      if (!tips.length) return false;
      info.tips = tips;
      return true;
    }
    case 'requirements': {
      const r = value as Record<string, unknown>;
      const fee = text(r.applicationFee, 200);
      const req = {
        transcripts: text(r.transcripts, 500),
        SAT_ACT: text(r.SAT_ACT, 500),
        teacherRecommendations: text(r.teacherRecommendations, 500),
        ...(fee ? { applicationFee: fee } : {}),
      };
      if (!req.transcripts && !req.SAT_ACT && !req.teacherRecommendations && !fee) return false;
      info.requirements = req;
      return true;
    }
    case 'admissionStatistics': {
      const a = value as { overallAcceptanceRate?: unknown; year?: unknown };
      let rate = typeof a.overallAcceptanceRate === 'number' ? a.overallAcceptanceRate : null;
      // Models sometimes answer 4.5 meaning 4.5 %; the contract is a fraction.
      if (rate !== null && rate > 1 && rate <= 100) rate = rate / 100;
      if (rate !== null && (rate < 0 || rate > 1)) rate = null;
      const year = text(a.year, 40);
      if (rate === null && !year) return false;
      info.admissionStatistics = { overallAcceptanceRate: rate, year };
      return true;
    }
    case 'admittedStudentProfile': {
      const p = value as Record<string, unknown>;
      const profile = { GPA: text(p.GPA, 200), SAT: text(p.SAT, 200), Major: text(p.Major, 500) };
      if (!profile.GPA && !profile.SAT && !profile.Major) return false;
      info.admittedStudentProfile = profile;
      return true;
    }
    case 'aliases':
      return texts(value, 40, 200).length ? true : 'empty';
    case 'links':
      return texts(value, 30).filter(isHttp).length ? true : 'empty';
  }
}

/** The figures each data year of `DataYears` covers, as paths in the College document. */
const YEAR_GROUPS: Record<keyof DataYears, readonly string[]> = {
  admissions: [
    'demographics.admissionRate',
    'demographics.admissionRateScope',
    'demographics.admissionTests',
    'demographics.openAdmissions',
  ],
  students: [
    'demographics.schoolSize',
    'demographics.schoolGradSize',
    'demographics.studentFacRatio',
    'demographics.demographics',
    'demographics.retentionRate',
  ],
  cost: ['costAttendance', 'inStateTuition', 'outOfStateTuition'].map((k) => `demographics.finance.${k}`),
  netPrice: [
    'avgNetPrice',
    'netPrice0to30000',
    'netPrice30001to48000',
    'netPrice48001to75000',
    'netPrice75001to110000',
    'netPrice110001plus',
  ].map((k) => `demographics.finance.${k}`),
  aid: [
    'avgFamilyIncome',
    'medianFamilyIncome',
    'fafsaApplications',
    'studentsGrantsOrLoans',
    'pellGrantRate',
    'federalLoanRate',
  ].map((k) => `demographics.finance.${k}`),
  debt: ['demographics.finance.medianDebt'],
  earnings: ['demographics.finance.medianEarnings'],
  completion: ['demographics.graduationRate', 'demographics.finance.graduationRate', 'demographics.outcomes'],
};

const valueAt = (doc: College, path: string): unknown =>
  path
    .split('.')
    .reduce<unknown>(
      (v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined),
      doc,
    );

/** Deep equality that ignores key order (a stored document comes back from jsonb with its keys sorted). */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if ((a ?? null) === null || (b ?? null) === null) return (a ?? null) === (b ?? null);
  if (typeof a !== 'object' || typeof b !== 'object') return false;
  const ka = Object.keys(a as object).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b as object).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** The year a stored figure group is from: its own data year, else its figures' sources', else its part's. */
function groupYear(doc: College, group: keyof DataYears): string | null {
  const s = doc.sources;
  const finance = YEAR_GROUPS[group].every((p) => p.startsWith('demographics.finance.'));
  return (
    doc.demographics.dataYears?.[group] ??
    YEAR_GROUPS[group].map((p) => sourceYear(s[p])).find(Boolean) ??
    (finance ? sourceYear(s['demographics.finance']) : null) ??
    sourceYear(s.demographics)
  );
}

/**
 * Official figures keep their year when a refresh says none (issue 34): the College Scorecard API answers
 * with its latest figures and no year, while the stored ones (the shipped snapshot, an import) name theirs.
 * A refresh that changes nothing keeps the stored document's dated sources as they are; otherwise each
 * group of figures the refresh left unchanged keeps its year in `dataYears`, and a changed group has the
 * year its new source states, or none (`changed` lists the paths whose value changed). A refresh that
 * states its own year is taken as it is.
 */
function officialYearsKept(
  existing: College,
  incoming: College,
): { demographics: Demographics; keepSources: boolean; changed: string[] } {
  const plain = { demographics: incoming.demographics, keepSources: false, changed: [] as string[] };
  if (sourceYear(incoming.sources.demographics) || !existing.sources.demographics) return plain;
  const groups = Object.keys(YEAR_GROUPS) as Array<keyof DataYears>;
  const changed = groups
    .flatMap((g) => YEAR_GROUPS[g])
    .filter((p) => !sameValue(valueAt(existing, p), valueAt(incoming, p)));
  const { dataYears: _ignored, ...was } = existing.demographics;
  const { dataYears: stated, ...now } = incoming.demographics;
  if (sameValue(was, now)) return { demographics: existing.demographics, keepSources: true, changed: [] };
  const years: DataYears = {};
  for (const g of groups) {
    const year =
      stated?.[g] ?? (YEAR_GROUPS[g].some((p) => changed.includes(p)) ? null : groupYear(existing, g));
    if (year) years[g] = year;
  }
  const demographics: Demographics = { ...incoming.demographics };
  if (Object.keys(years).length) demographics.dataYears = years;
  else delete demographics.dataYears;
  return { demographics, keepSources: false, changed };
}

/**
 * Refreshes a stored college's government data (the bulk import) without touching what was gathered
 * from the college's pages: demographics and their sources are replaced, aliases merged, facts kept.
 */
export function mergeGovernment(existing: College, incoming: College): College {
  const sources = { ...existing.sources };
  const { demographics, keepSources, changed } = officialYearsKept(existing, incoming);
  if (!keepSources) {
    for (const key of ['demographics', 'demographics.finance'] as const) {
      const s = incoming.sources[key];
      if (s) sources[key] = s;
    }
    // A figure's own dated source describes the stored value: it goes when the value changed.
    for (const key of Object.keys(sources))
      if (changed.some((p) => key === p || key.startsWith(`${p}.`))) delete sources[key];
  }
  if (!sources.name && incoming.sources.name) sources.name = incoming.sources.name;
  return {
    ...existing,
    scorecardId: incoming.scorecardId ?? existing.scorecardId,
    website: incoming.website ?? existing.website ?? null,
    demographics,
    aliases: dedupeNames([...existing.aliases, ...incoming.aliases], existing.name),
    links: existing.links.length ? existing.links : incoming.links,
    sources,
    missing: [
      ...incoming.missing.filter(isGovernmentMissing),
      ...existing.missing.filter((m) => !isGovernmentMissing(m)),
    ],
  };
}

function take<K extends keyof CollegeInfo>(to: CollegeInfo, from: CollegeInfo, key: K): void {
  to[key] = from[key];
}

/**
 * Adds what was gathered from a college's own pages to the stored college it was matched to by College
 * Scorecard id. The government part is never taken from the new document unless it is government data
 * of the same institution (a fresher Scorecard answer): AI answers never replace official figures. Each
 * fact group the new document has a page for replaces the stored one; a group it could not find keeps
 * the stored one. Deadlines and requirements follow the order of sources (source-order.ts): the official
 * ones stay, the answer fills what they do not state, and what contradicts them is returned as `held`.
 * The stored name stays, since students' lists refer to it.
 */
export function mergeEnrichmentHeld(
  stored: College,
  incoming: College,
): { college: College; held: HeldFact[] } {
  const sameInstitution =
    incoming.scorecardId !== null &&
    incoming.scorecardId === stored.scorecardId &&
    !!incoming.sources.demographics;
  const base = sameInstitution ? mergeGovernment(stored, incoming) : stored;
  const info: CollegeInfo = { ...base.info };
  const sources = { ...base.sources };
  const factMissing: string[] = [];
  const held: HeldFact[] = [];
  const entry = (list: string[], label: string) => list.find((m) => m.startsWith(`${label} (`));
  for (const g of FACT_GROUPS) {
    if (!g.path.startsWith('info.')) continue;
    const key = g.path.slice('info.'.length) as keyof CollegeInfo;
    const page = incoming.sources[g.path];
    if (key === 'deadlines') {
      const h = mergeDeadlines(base, incoming, info, sources);
      if (h) held.push(h);
    } else if (key === 'requirements') {
      const h = mergeRequirements(base, incoming, info, sources);
      if (h) held.push(h);
    } else if (page) {
      take(info, incoming.info, key);
      if (key === 'essayPrompts') {
        if (incoming.info.essayPromptMeta) info.essayPromptMeta = incoming.info.essayPromptMeta;
        else delete info.essayPromptMeta;
      }
      sources[g.path] = page;
    }
    if (!sources[g.path] && g.listed) {
      // Neither has it from a page: say why, with the newest reason.
      const why = entry(incoming.missing, g.label) ?? entry(base.missing, g.label);
      if (why) factMissing.push(why);
    }
  }
  for (const key of ['aliases', 'links'] as const) {
    const page = incoming.sources[key];
    if (page) sources[key] = page;
  }
  const college = {
    ...base,
    aliases: dedupeNames([...base.aliases, ...incoming.aliases], base.name),
    links: [...new Set([...base.links, ...incoming.links])].slice(0, 30),
    updatedAt: incoming.updatedAt ?? base.updatedAt,
    info,
    sources,
    missing: [...base.missing.filter(isGovernmentMissing), ...factMissing],
  };
  return { college, held };
}

/** `mergeEnrichmentHeld` without what it holds for review. */
export const mergeEnrichment = (stored: College, incoming: College): College =>
  mergeEnrichmentHeld(stored, incoming).college;

const official = (x: SourcedDeadline) => isOfficialSource(x.source);

/**
 * The plans of a list already ordered against official data: its official rows and every row of a plan
 * (an answer's newer date of an official plan took that plan's row, with the answer's page as its source;
 * an admin approved the others). Empty when the list has no official row.
 */
const officialPlans = (list: readonly SourcedDeadline[]) =>
  list.some(official) ? list.filter((x) => official(x) || planTypeOf(x.deadline.type) !== null) : [];

/**
 * The deadlines of an enriched college: the stored official plans (else the new document's), with the
 * new answer's (else the stored answer's) ordered against them. Returns the contradicting answer, held.
 */
function mergeDeadlines(
  base: College,
  incoming: College,
  info: CollegeInfo,
  sources: Record<string, Source>,
): HeldFact | null {
  const stored = sourcedDeadlines(base.info.deadlines, base.sources);
  const fresh = sourcedDeadlines(incoming.info.deadlines, incoming.sources);
  // Both documents were ordered against the grid when built: a plan whose row an answer's newer date took
  // is still a plan the official data names (issue 44: Yale's REA answered with this cycle's date).
  const storedOfficial = officialPlans(stored);
  const officialList = storedOfficial.length ? storedOfficial : officialPlans(fresh);
  const freshAnswer = fresh.filter((x) => !official(x));
  const answer = freshAnswer.length ? freshAnswer : stored.filter((x) => !official(x));
  if (!officialList.length && !answer.length) return null;
  const at = new Date(incoming.updatedAt ?? incoming.createdAt);
  const ordered = orderDeadlines(officialList, answer, comingCycles(at).from);
  info.deadlines = writeDeadlines(ordered.deadlines, sources);
  return heldDeadlines(ordered.contradicting, answer[0]?.source ?? null, officialList);
}

type RequirementKey = keyof CollegeInfo['requirements'];
const requirementSource = (doc: College, k: string): Source | undefined =>
  doc.sources[`info.requirements.${k}`] ?? doc.sources['info.requirements'];
const stated = (v: unknown) => (typeof v === 'string' && v.trim() !== '') || typeof v === 'number';

/** The fields of a document's requirements whose source is (or is not) official, with that source. */
function requirementsBy(doc: College, wantOfficial: boolean) {
  const fields: Record<string, string | number> = {};
  let source: Source | undefined;
  for (const [k, v] of Object.entries(doc.info.requirements)) {
    const src = requirementSource(doc, k);
    if (!stated(v) || !src || isOfficialSource(src) !== wantOfficial) continue;
    fields[k] = v as string | number;
    source ??= src;
  }
  return { fields, source, doc };
}

/**
 * The requirements of an enriched college: the stored official fields (else the new document's), the
 * new answer's fields (else the stored answer's) filling what they do not state. Returns the
 * contradicting answer, held.
 */
function mergeRequirements(
  base: College,
  incoming: College,
  info: CollegeInfo,
  sources: Record<string, Source>,
): HeldFact | null {
  const storedOfficial = requirementsBy(base, true);
  const off = storedOfficial.source ? storedOfficial : requirementsBy(incoming, true);
  const freshAnswer = requirementsBy(incoming, false);
  const ans = freshAnswer.source ? freshAnswer : requirementsBy(base, false);
  if (!off.source && !ans.source) return null;
  const officialReq = {
    transcripts: null,
    SAT_ACT: null,
    teacherRecommendations: null,
    ...off.fields,
  } as CollegeInfo['requirements'];
  const answerReq = ans.fields as Partial<CollegeInfo['requirements']>;
  if (!off.source) {
    // Nothing official: the answer's, each field with its page, as it gave them.
    for (const k of Object.keys(sources)) if (k.startsWith('info.requirements.')) delete sources[k];
    info.requirements = { transcripts: null, SAT_ACT: null, teacherRecommendations: null, ...answerReq };
    sources['info.requirements'] = ans.source!;
    for (const k of Object.keys(answerReq)) {
      const src = requirementSource(ans.doc, k);
      if (src && src !== ans.source) sources[`info.requirements.${k}`] = src;
    }
    return null;
  }
  const offSource = off.source;
  const ordered = orderRequirements(officialReq, answerReq);
  for (const k of Object.keys(sources)) if (k.startsWith('info.requirements.')) delete sources[k];
  sources['info.requirements'] = offSource;
  // An official field from another official file than the section's keeps its own source.
  for (const k of Object.keys(off.fields)) {
    const src = requirementSource(off.doc, k);
    if (src && src.url !== offSource.url) sources[`info.requirements.${k}`] = src;
  }
  for (const f of ordered.answerFields) {
    const src = requirementSource(ans.doc, f);
    if (src) sources[`info.requirements.${f}`] = src;
  }
  info.requirements = ordered.requirements;
  const page = ANSWER_REQUIREMENTS.map((f) => requirementSource(ans.doc, f as RequirementKey)).find(
    (src) => src && !isOfficialSource(src),
  );
  return heldRequirements(ordered.contradicting, page ?? null, officialReq, offSource);
}

/**
 * The official website of a stored college: the College Scorecard's, which only government data sets.
 * Documents stored before the field existed carry it as their first link when that link came from the
 * Scorecard (the shipped snapshot); anything else has none, and then no AI fact is shared without review.
 */
export function officialWebsiteOf(doc: College): string | null {
  if (doc.website !== undefined) return doc.website;
  if (doc.scorecardId === null) return null;
  const s = doc.sources.links;
  return s?.title?.startsWith(SCORECARD_SOURCE_TITLE) && doc.links[0] ? doc.links[0] : null;
}

/**
 * A held fact an admin approved, added to a shared college's document: a name or link is added to its
 * list, a fact group replaces the stored one (with its page as source, checked as the AI's answers are:
 * deadlines of the coming two admission cycles only). Returns null when nothing usable is left.
 */
export function applyApprovedFact(
  doc: College,
  fact: { kind: (typeof FACT_GROUPS)[number]['key']; value: unknown; sourceUrl: string | null },
  now: Date,
): College | null {
  const at = now.toISOString();
  const src = fact.sourceUrl && isHttp(fact.sourceUrl) ? source(fact.sourceUrl, null, at) : null;
  if (fact.kind === 'aliases') {
    const aliases = dedupeNames([...doc.aliases, ...texts(fact.value, 40, 200)], doc.name);
    return aliases.length > doc.aliases.length ? { ...doc, aliases, updatedAt: at } : null;
  }
  if (fact.kind === 'links') {
    const links = [...new Set([...doc.links, ...texts(fact.value, 30).filter(isHttp)])].slice(0, 30);
    return links.length > doc.links.length ? { ...doc, links, updatedAt: at } : null;
  }
  const info: CollegeInfo = { ...doc.info };
  if (applyFact(fact.kind, fact.value, info, now) !== true || !src) return null;
  const group = FACT_GROUPS.find((g) => g.key === fact.kind)!;
  const label = group.label;
  const sources = { ...doc.sources, [group.path]: src };
  if (fact.kind === 'deadlines') {
    // The admin decided for these plans only: the official deadlines of every other plan stay.
    const approved = info.deadlines.map((deadline) => ({ deadline, source: src }));
    const key = (t: string) => planTypeOf(t) ?? t.trim().toLowerCase();
    const kept = sourcedDeadlines(doc.info.deadlines, doc.sources).filter(
      (x) =>
        isOfficialSource(x.source) && !approved.some((a) => key(a.deadline.type) === key(x.deadline.type)),
    );
    info.deadlines = writeDeadlines([...kept, ...approved], sources);
  }
  return {
    ...doc,
    info,
    sources,
    missing: doc.missing.filter((m) => !m.startsWith(`${label} (`)),
    updatedAt: at,
  };
}

/** The government-only document the bulk import stores; college facts follow on the first search. */
export function governmentCollege(gov: GovernmentData, gatheredAt: string, name?: string): College {
  return assembleCollege({
    requestedName: gov.name,
    name,
    government: gov,
    facts: null,
    factsReason: 'gathered the first time a student searches for this college',
    gatheredAt,
  }).college;
}
