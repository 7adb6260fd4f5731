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
