import type { CollegeFactsAnswer, HeldFactKind } from '@ct/contracts';
import { normaliseCollegeName } from '@ct/contracts/constants';

/**
 * When may a college that no government record confirms be shared with every student? Only when the
 * official website the AI provider named is an educational domain that belongs to the college, and the
 * name the student typed is the college's official name (or a part of it). Anything else stays private
 * to the students who asked, and waits for an admin's review. The rule errs on the side of review:
 * a real college it refuses costs an admin a click; a made-up one it accepted would reach everyone.
 */

/** Words that say what kind of place it is, not which one: they carry no identity. */
const GENERIC_WORDS = new Set([
  'the',
  'of',
  'at',
  'in',
  'and',
  'for',
  'a',
  'an',
  'on',
  'de',
  'la',
  'le',
  'du',
  'des',
  'university',
  'univ',
  'uni',
  'college',
  'coll',
  'institute',
  'inst',
  'school',
  'academy',
  'campus',
  'main',
]);

/** Little words left out of an acronym ("Massachusetts Institute of Technology" → "mit"). */
const ACRONYM_SKIP = new Set(['the', 'of', 'at', 'in', 'and', 'for', 'a', 'an', 'on', 'de', 'la']);

/**
 * Educational public suffixes: only accredited institutions can register under them (`.edu` in the
 * United States; `.ac.xx` and `.edu.xx` elsewhere), so a name there cannot simply be bought.
 */
const EDUCATIONAL_SUFFIX = /(^|\.)(edu|ac\.[a-z]{2}|edu\.[a-z]{2})$/;

/** Significant words of a name: normalised, without the generic ones. */
export function significantWords(name: string): string[] {
  return normaliseCollegeName(name)
    .split(' ')
    .filter((w) => w && !GENERIC_WORDS.has(w));
}

/** Two words agree when equal, or when one starts the other and the shorter has at least 4 letters. */
function wordsAgree(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  return short.length >= 4 && long.startsWith(short);
}

/**
 * The registrable domain of a URL's host and whether it is educational: "admissions.mit.edu" →
 * { domain: "mit.edu", label: "mit", educational: true }; "www.ox.ac.uk" → "ox.ac.uk". Null when the
 * URL is not an http(s) URL with a dotted host name (an IP address is not a college's website).
 */
export function registrableDomain(
  url: string,
): { domain: string; label: string; educational: boolean } | null {
  let host: string;
  try {
    const u = new URL(url.trim());
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
    host = u.hostname.toLowerCase().replace(/\.$/, '');
  } catch {
    return null;
  }
  if (!/^[a-z0-9.-]+$/.test(host) || /^[\d.]+$/.test(host) || !host.includes('.')) return null;
  const labels = host.split('.');
  const twoLevel = /^(ac|edu|co|org|gov)\.[a-z]{2}$/.test(labels.slice(-2).join('.'));
  const take = twoLevel ? 3 : 2;
  if (labels.length < take) return null;
  const domain = labels.slice(-take).join('.');
  return { domain, label: labels[labels.length - take]!, educational: EDUCATIONAL_SUFFIX.test(domain) };
}

/**
 * True when a domain label names the college: its acronym ("mit", "ucla"), or a significant word of the
 * name in it or it in a significant word, at least 4 letters either way ("stanford", "gatech" holds
 * "tech", "upenn" holds "penn").
 */
export function domainMatchesName(label: string, officialName: string): boolean {
  const all = normaliseCollegeName(officialName).split(' ').filter(Boolean);
  const l = label.toLowerCase().replace(/-/g, '');
  if (l.length < 2) return false;
  const acronyms = [
    all.map((w) => w[0]).join(''),
    all
      .filter((w) => !ACRONYM_SKIP.has(w))
      .map((w) => w[0])
      .join(''),
  ];
  if (acronyms.includes(l)) return true;
  return significantWords(officialName).some((w) => {
    if (w.length >= 4 && l.includes(w)) return true;
    if (l.length >= 4 && w.includes(l)) return true;
    // A 4-letter start of the word inside the label: "tech" of technology in "gatech"
    return w.length >= 4 && l.includes(w.slice(0, 4)) && l.length <= w.length + 4;
  });
}

export interface TrustDecision {
  shared: boolean;
  /** Why not, in words an admin reads in the review list (empty when shared). */
  reason: string;
}

/**
 * The rule for a college the AI provider found with no government record behind it. Shared with everyone
 * only when all hold:
 * 1. the official website is an http(s) URL on an educational domain (.edu, .ac.xx, .edu.xx);
 * 2. that domain names the college (its acronym, or a significant word of the official name);
 * 3. every significant word the student typed is in the official name (typing "Harvard" for "Harvard
 *    University" agrees; "Example Made Up College" for "Example official name" does not), and the
 *    student typed at least one.
 */
export function decideSharing(
  typedName: string,
  officialName: string,
  website: string | null,
): TrustDecision {
  const typed = significantWords(typedName);
  const official = significantWords(officialName);
  if (!typed.length) {
    return { shared: false, reason: `"${typedName}" has no word that names a particular college.` };
  }
  const unmatched = typed.filter((t) => !official.some((o) => wordsAgree(t, o)));
  if (unmatched.length) {
    return {
      shared: false,
      reason: `The official name "${officialName}" does not contain "${unmatched.join(' ')}" from what was typed.`,
    };
  }
  const site = website ? registrableDomain(website) : null;
  if (!site) return { shared: false, reason: 'No official website was found for it.' };
  if (!site.educational) {
    return {
      shared: false,
      reason: `Its website (${site.domain}) is not on an educational domain such as .edu.`,
    };
  }
  if (!domainMatchesName(site.label, officialName)) {
    return {
      shared: false,
      reason: `Its website (${site.domain}) does not match the official name "${officialName}".`,
    };
  }
  return { shared: true, reason: '' };
}

// ---- Facts of an AI answer about an institution we know (ADR 0070, issue 20) ----

/** One fact group of an AI answer that stays private to who asked, for an admin's review. */
export interface HeldFact {
  kind: HeldFactKind;
  /** The group's value as the answer gave it (lists trimmed of what the shared record kept) */
  value: unknown;
  sourceUrl: string | null;
  /** Why it was not shared, in a sentence an admin and the student read */
  reason: string;
}

/** The fact groups of a college facts answer, in the order the card shows them. */
export const HELD_FACT_KINDS = [
  'deadlines',
  'essayPrompts',
  'requirements',
  'tips',
  'admissionStatistics',
  'admittedStudentProfile',
  'links',
  'aliases',
] as const satisfies readonly HeldFactKind[];

export const HELD_FACT_LABELS: Record<HeldFactKind, string> = {
  deadlines: 'Deadlines',
  essayPrompts: 'Essay prompts',
  requirements: 'Requirements',
  tips: 'Tips',
  admissionStatistics: 'Admission statistics',
  admittedStudentProfile: 'Admitted student profile',
  links: 'Helpful links',
  aliases: 'Other names',
};

/** Marketing and tracking parameters a search engine adds to a cited page's address. */
const TRACKING_PARAM = /^(utm_[a-z]+|gclid|fbclid|ref|source)$/i;

/**
 * A page address reduced to what names the page, so a cited URL and the URL the answer gives for a fact
 * compare equal when they are the same page: http(s) only, lowercase host without `www.`, no fragment,
 * no tracking parameters, no trailing slash. Null for anything that is not an http(s) URL.
 */
export function pageKey(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url.trim());
  } catch {
    return null;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
  const host = u.hostname
    .toLowerCase()
    .replace(/\.$/, '')
    .replace(/^www\./, '');
  const params = [...u.searchParams.entries()]
    .filter(([k]) => !TRACKING_PARAM.test(k))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const query = params.length ? `?${new URLSearchParams(params).toString()}` : '';
  const path = u.pathname.replace(/\/+$/, '');
  return `${host}${path}${query}`;
}

/** A website as the Scorecard may write it ("www.yale.edu/"), as a URL. */
const siteUrl = (w: string) => (/^[a-z]+:\/\//i.test(w.trim()) ? w.trim() : `https://${w.trim()}`);

/**
 * True when a URL's host is on the official website's registrable domain (subdomains count:
 * admissions.stanford.edu for www.stanford.edu). A look-alike (stanford.edu.evil.com, evil.com/stanford.edu,
 * user info) is not.
 */
export function onOfficialDomain(url: string, officialWebsite: string | null): boolean {
  if (!officialWebsite) return false;
  const official = registrableDomain(siteUrl(officialWebsite));
  const page = registrableDomain(url);
  return !!official && !!page && official.domain === page.domain;
}

/** Why a page cannot vouch for a fact: null when it can (on the official domain and cited). */
export function sourceProblem(
  sourceUrl: string | null,
  officialWebsite: string | null,
  cited: ReadonlySet<string>,
): string | null {
  if (!officialWebsite) return 'No official website is known for this college from the College Scorecard.';
  const official = registrableDomain(siteUrl(officialWebsite))?.domain ?? officialWebsite;
  if (!sourceUrl) return 'The answer named no page for it.';
  if (!onOfficialDomain(sourceUrl, officialWebsite)) {
    const at = registrableDomain(sourceUrl)?.domain ?? sourceUrl;
    return `Its page (${at}) is not on the college's official domain (${official}).`;
  }
  const key = pageKey(sourceUrl);
  if (!key || !cited.has(key)) {
    return `Its page (${sourceUrl}) is not among the pages the answer's web search cited.`;
  }
  return null;
}

/** What the screening needs to know about the institution the answer is about. */
export interface ScreenContext {
  /** Its official website as the College Scorecard publishes it (null: none known) */
  officialWebsite: string | null;
  /** Its official name (the answer's own `officialName` is replaced by it) */
  officialName: string;
  /** Every page the answer's web search cited (`url_citation` annotations of that very response) */
  citations: readonly string[];
}

type FactGroup = { value: unknown; sourceUrl: string | null };

/**
 * The sharing rule for an AI answer about an institution we know (a College Scorecard institution): a
 * fact group enters the shared record only when the page it names is on the college's official domain
 * AND among the pages that very response cited; each link must itself be on the official domain; names
 * (aliases) never enter it without an admin. Everything else is returned as `held`: private to the
 * students who asked, waiting for review. Groups with no value are left as they are. Pure: the same
 * answer and context always give the same split.
 */
export function screenAnswer(
  answer: CollegeFactsAnswer,
  ctx: ScreenContext,
): { answer: CollegeFactsAnswer; held: HeldFact[] } {
  const cited = new Set(ctx.citations.map(pageKey).filter((k): k is string => !!k));
  const held: HeldFact[] = [];
  const out = { ...answer, officialName: ctx.officialName } as CollegeFactsAnswer;
  const clear = { value: null, sourceUrl: null };
  const has = (g: FactGroup) =>
    g.value !== null && !(Array.isArray(g.value) && g.value.length === 0) && typeof g.value !== 'undefined';
  const isHttp = (u: unknown): u is string => typeof u === 'string' && /^https?:\/\/\S+$/i.test(u.trim());

  for (const kind of HELD_FACT_KINDS) {
    const group = answer[kind] as FactGroup;
    if (!has(group)) continue;
    if (kind === 'aliases') {
      // A name is how every other student reaches a college: an admin decides, always.
      (out as Record<string, unknown>)[kind] = clear;
      if (isHttp(group.sourceUrl)) {
        held.push({
          kind,
          value: group.value,
          sourceUrl: group.sourceUrl,
          reason: 'Names from an AI answer are shared only after an admin approves them.',
        });
      }
      continue;
    }
    // A group without a page vouches for nothing: the document builder drops it and lists it as "found
    // without a source page" (assembleCollege); nothing to review.
    if (!isHttp(group.sourceUrl)) continue;
    const problem = sourceProblem(group.sourceUrl, ctx.officialWebsite, cited);
    if (problem) {
      (out as Record<string, unknown>)[kind] = clear;
      held.push({ kind, value: group.value, sourceUrl: group.sourceUrl, reason: problem });
      continue;
    }
    if (kind === 'links' && Array.isArray(group.value)) {
      // The page vouches for the list, not for where each link leads: an outside link waits for review.
      const links = group.value.filter((l): l is string => typeof l === 'string');
      const inside = links.filter((l) => onOfficialDomain(l, ctx.officialWebsite));
      const outside = links.filter((l) => !onOfficialDomain(l, ctx.officialWebsite));
      (out as Record<string, unknown>)[kind] = inside.length
        ? { value: inside, sourceUrl: group.sourceUrl }
        : clear;
      if (outside.length) {
        held.push({
          kind,
          value: outside,
          sourceUrl: group.sourceUrl,
          reason: "These links lead outside the college's official domain.",
        });
      }
    }
  }
  // The website the answer claims is not the official one unless it is on the official domain.
  if (!answer.website || !onOfficialDomain(answer.website, ctx.officialWebsite)) out.website = null;
  return { answer: out, held };
}

/** A held fact as lines a student or an admin reads ("Regular Decision: 2027-01-04"). */
export function heldFactLines(kind: HeldFactKind, value: unknown): string[] {
  const str = (v: unknown) =>
    typeof v === 'string' ? v.trim() : v === null || v === undefined ? '' : String(v);
  const list = (v: unknown) => (Array.isArray(v) ? v : []);
  switch (kind) {
    case 'deadlines':
      return list(value)
        .map((d: { type?: unknown; date?: unknown }) => `${str(d?.type)}: ${str(d?.date) || 'rolling'}`)
        .filter((l) => l.length > 2);
    case 'requirements':
    case 'admissionStatistics':
    case 'admittedStudentProfile': {
      const o = value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
      return Object.entries(o)
        .filter(([, v]) => v !== null && v !== undefined && str(v) !== '')
        .map(([k, v]) => `${k}: ${str(v)}`);
    }
    default:
      return list(value)
        .map(str)
        .filter((l) => l !== '');
  }
}
