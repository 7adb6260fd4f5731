import { US_STATES } from '@ct/contracts/planning';

/** Words that say what kind of school it is, not which one: left out of a calendar marker. */
const GENERIC = new Set([
  'the',
  'of',
  'at',
  'and',
  'in',
  'for',
  'university',
  'college',
  'institute',
  'school',
  'academy',
  'community',
  'state',
  'main',
  'campus',
  'technology',
  'sciences',
  'arts',
]);
/** Words an acronym skips ("Massachusetts Institute of Technology" → MIT). */
const SMALL_WORDS = new Set(['of', 'at', 'and', 'in', 'for', '&', 'de', 'la']);

const STATES = new Map(US_STATES.map(([code, name]) => [name.toLowerCase(), code]));

/**
 * The names students use for "University of <State>" (and "<State> State University") where the state's
 * name is long: UMass, UMich, UPenn, UConn. Other states keep their name ("Ohio State", "Iowa").
 */
const STATE_SHORT: Record<string, string> = {
  massachusetts: 'Mass',
  michigan: 'Mich',
  pennsylvania: 'Penn',
  connecticut: 'Conn',
  california: 'C',
};

/**
 * The part of an official name before its campus ("University of Michigan-Ann Arbor", "North Carolina
 * State University at Raleigh"). A hyphen inside a name ("Colby-Sawyer College") is not a campus: the part
 * before a campus names the kind of school.
 */
function splitCampus(name: string): { main: string; campus: string | null } {
  const m = /^(.+?)(?:\s*-\s*|\s+at\s+)(.+)$/i.exec(name);
  if (!m || !words(m[1]!).some((w) => GENERIC.has(w.toLowerCase()) && !SMALL_WORDS.has(w.toLowerCase())))
    return { main: name, campus: null };
  return { main: m[1]!.trim(), campus: m[2]!.trim() };
}

const words = (s: string) => s.split(/[\s,]+/).filter(Boolean);
const cap = (w: string) =>
  w === w.toLowerCase() && !SMALL_WORDS.has(w) ? w[0]!.toUpperCase() + w.slice(1) : w;

/**
 * Labels for a calendar marker, most recognisable first, shorter after: whole words only, never a piece of
 * a word. The calendar shows the first that fits its day (see useMarkerFit); the full name stays in the
 * tooltip, for screen readers and in the day's list.
 *
 * "University of Massachusetts-Amherst" → ["Massachusetts", "UMass Amherst", "UMass", "UMA"];
 * "The College of New Jersey" → ["New Jersey", "TCNJ"]; "Colby College" → ["Colby", "CC"].
 * A note keeps its title; an aid date its form's name.
 */
export function markerCandidates(summary: string, source: 'college' | 'note' | 'aid'): string[] {
  const text = summary.trim().replace(/\s+/g, ' ');
  if (!text) return [text];
  if (source !== 'college') {
    const w = words(text);
    // A long title: its first words, whole, then any one of its words.
    return unique([text, w.slice(0, 2).join(' '), ...w]);
  }
  const { main, campus } = splitCampus(text);
  const mainWords = words(main);
  const lower = mainWords.map((w) => w.toLowerCase());
  const out: string[] = [];

  // The words that tell the college apart, kept together: "New Jersey", "Carnegie Mellon", "Colby".
  const run: string[] = [];
  for (let i = 0; i < mainWords.length; i++) {
    // "William and Mary": "and" joins two distinctive words.
    const joins =
      run.length && (lower[i] === 'and' || lower[i] === '&') && !GENERIC.has(lower[i + 1] ?? 'of');
    if (GENERIC.has(lower[i]!) && !joins) {
      if (run.length) break;
      continue;
    }
    run.push(mainWords[i]!);
  }
  const state = run.join(' ').toLowerCase();
  const stateCode = STATES.get(state);
  const stateShort = STATE_SHORT[state] ?? (run.length > 1 ? stateCode : null);
  // "Ohio State University" → "Ohio State" (never "Ohio": that is Ohio University); "NC State".
  const stateSchool =
    !!stateCode && lower.includes('state') && lower.indexOf('state') > lower.indexOf(run[0]!.toLowerCase());
  if (stateSchool) out.push(`${run.join(' ')} State`, `${stateShort ?? run.join(' ')} State`);
  // "Massachusetts Institute of Technology": the state alone would name another college; MIT first.
  const institute = /\binstitute of technology\b/i.test(main);
  if (institute) out.push(initials(mainWords), `${run.join(' ')} Tech`);
  // "University of Massachusetts" → UMass (with the campus when it fits: "UMass Amherst"); the University
  // of California is a system: its campus names it ("UC Berkeley").
  const flagship = !!stateCode && /^university of /i.test(main);
  if (flagship && state === 'california' && campus) out.push(`UC ${campus}`);
  if (run.length && !stateSchool && !(institute && stateCode)) out.push(run.join(' '));
  if (flagship && stateShort) {
    if (campus) out.push(`U${stateShort} ${campus}`);
    out.push(`U${stateShort}`);
  }
  if (!run.length && campus) out.push(campus);
  // Initials: "TCNJ", "MIT", "UM".
  const short = initials(mainWords);
  if (short.length >= 2) out.push(short);
  if (!out.length) out.push(mainWords[0] ?? text);
  return unique(out.map((c) => c.split(' ').map(cap).join(' ')));
}

function initials(list: readonly string[]): string {
  return list
    .filter((w) => !SMALL_WORDS.has(w.toLowerCase()))
    .map((w) => w[0]!.toUpperCase())
    .join('');
}

function unique(list: string[]): string[] {
  return [...new Set(list.filter(Boolean))];
}

/**
 * The first label that fits: each word whole on a line of `width` px, at most `lines` lines. `measure`
 * gives a text's width in px. When none fits, the shortest.
 */
export function fitLabel(
  candidates: readonly string[],
  width: number,
  measure: (text: string) => number,
  lines = 2,
): string | null {
  for (const c of candidates) {
    let used = 0;
    let line = '';
    let ok = true;
    for (const w of c.split(' ')) {
      if (measure(w) > width) {
        ok = false;
        break;
      }
      const next = line ? `${line} ${w}` : w;
      if (measure(next) <= width) line = next;
      else {
        used++;
        line = w;
      }
    }
    if (ok && used + 1 <= lines) return c;
  }
  return null;
}

/** The old single-label rule, kept for callers that cannot measure: the first candidate. */
export function markerLabel(summary: string, source: 'college' | 'note' | 'aid'): string {
  return markerCandidates(summary, source)[0]!;
}
