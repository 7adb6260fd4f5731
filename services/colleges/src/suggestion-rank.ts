/**
 * The one rule that orders college suggestions: how likely a student typing some text means each college
 * that matches it. SuggestionIndex (suggestions.ts) finds the matches and applies this rule; the scores and
 * the reasons for them live here alone.
 *
 * Why: a student typing "Notre" means the University of Notre Dame far more often than Notre Dame College,
 * and "Ohio Sta" means Ohio State's main campus, not the Ohio State Beauty Academy. Alphabetical order of
 * names that start with the text buried both (issue 49). What the College Scorecard publishes about each
 * institution says which one a student likely means: how many undergraduates it has (UGDS), the degree it
 * mainly awards (PREDDEG) and whether it is the main campus (MAIN).
 *
 * Which colleges are listed (`limit` of them): exact matches, then every college whose name starts with
 * the typed text ("University of" and "The" aside, see OPENING_WORDS) when they all fit, the best of the
 * other matches filling the places left; when more names start with the text than fit, the best of those.
 * So a student typing the first letters of any college's name finds it whenever the list can hold every
 * name starting so (issue 25), and a name that only has the typed word later ("University of
 * Massachusetts-Boston" for "Boston") never pushes one of those out.
 *
 * Their order, highest first:
 * 1. Exact: the text is the whole name or a known short name ("mit", "boston college").
 * 2. Matches: every typed word starts a word of the name, an alias or a short name. Among them, the
 *    college's prominence (below) plus where the match is (see MATCH_BONUS).
 * 3. Look-alikes (a typed word only resembles a word: "standford"): how close, then prominence.
 */

/** What the Scorecard says about a college, as the index keeps it (null: not published, or not known). */
export interface CollegeFacts {
  /** UGDS: degree-seeking undergraduates */
  undergrads: number | null;
  /** PREDDEG: 0 not classified, 1 certificate, 2 associate's, 3 bachelor's, 4 graduate */
  predominantDegree: number | null;
  /** MAIN: the main campus (true) or a branch (false) */
  mainCampus: boolean | null;
}

/**
 * Added for the degree a college mainly awards. Students applying to college mean four-year colleges far
 * more often than the certificate schools and graduate schools that share their names' words ("Miami Ad
 * School", "Boston Graduate School of Psychoanalysis"); two-year colleges sit between.
 */
const DEGREE_BONUS: Record<number, number> = { 0: -0.5, 1: -0.5, 2: 0, 3: 1, 4: 0.3 };

/** Added for the main campus: "Wright State" means Wright State University-Main Campus, not its branch. */
const MAIN_CAMPUS_BONUS = 0.3;

/**
 * How likely a student means this college, all else equal. Size counts on a log scale: 20,000
 * undergraduates against 2,000 weighs as much as 2,000 against 200, and one step is worth about as much as
 * being a bachelor's college (so a large university wins over a small college, but a mid-sized four-year
 * college still wins over a huge certificate school). Colleges the Scorecard does not know (gathered by
 * name from their own pages) have no figures and come after those it does.
 */
export function prominence(c: CollegeFacts): number {
  return (
    Math.log10(1 + Math.max(0, c.undergrads ?? 0)) +
    (c.predominantDegree !== null ? (DEGREE_BONUS[c.predominantDegree] ?? 0) : 0) +
    (c.mainCampus ? MAIN_CAMPUS_BONUS : 0)
  );
}

/** Which kind of entry of the index matched the typed text. */
export type EntryKind = 'name' | 'alias' | 'short';

/**
 * Added for where the match is, on top of prominence. A known short name ("umich", "penn state") was
 * chosen because students type it, so starting one counts most, and an alias that is exactly the typed
 * text as much (not more: the Scorecard's aliases are free text, "Boston" is one of New England Law's).
 * The name starting with the typed text counts more than the text found at a later word ("Boston
 * University" over "University of Massachusetts-Boston"); an alias starting with it, a little.
 */
const MATCH_BONUS = { shortStart: 1, exactAlias: 1, nameStart: 0.5, aliasStart: 0.2, later: 0 } as const;

/**
 * Words a name may open with before the word that names it: "University of Notre Dame" starts, for a
 * student, at "Notre", as "Notre Dame College" does.
 */
const OPENING_WORDS = new Set(['the', 'university', 'college', 'of']);

/** Above every other score: exact names and short names come first. */
const EXACT = 1000;

/** Whether a score is an exact match's (listed first, whatever else matches). */
export const isExact = (score: number): boolean => score >= EXACT;

/**
 * Whether a name (its normalised text and words) starts with the typed text, its opening words aside:
 * "university of notre dame" starts with "notre" as it does with "university of no".
 */
export function nameStartsWith(key: string, words: readonly string[], typed: string): boolean {
  let at = 0;
  for (let i = 0; ; i++) {
    if (key.startsWith(typed, at)) return true;
    if (i >= words.length || !OPENING_WORDS.has(words[i]!)) return false;
    at += words[i]!.length + 1;
  }
}

/**
 * The score of a college matching the typed text through one of its entries (`words`: the entry's
 * normalised words), `position` the word where the first typed word matched, `exact` whether the typed
 * text is the entry's whole text. Higher first.
 */
export function matchScore(
  kind: EntryKind,
  words: readonly string[],
  position: number,
  exact: boolean,
  collegeProminence: number,
): number {
  if (exact && kind !== 'alias') return EXACT + (kind === 'short' ? 1 : 0) + collegeProminence;
  let atStart = true;
  for (let i = 0; i < position && atStart; i++) atStart = OPENING_WORDS.has(words[i]!);
  const bonus = exact
    ? MATCH_BONUS.exactAlias
    : !atStart
      ? MATCH_BONUS.later
      : kind === 'short'
        ? MATCH_BONUS.shortStart
        : kind === 'name'
          ? MATCH_BONUS.nameStart
          : MATCH_BONUS.aliasStart;
  return bonus + collegeProminence;
}

/**
 * The score of a look-alike: `closeness` is the mean trigram closeness of the typed words to the entry's
 * words (0..1). Mostly closeness ("standford" is Stanford before it is Stafford), with prominence to part
 * near-equals: one step of prominence is worth 0.05 of closeness.
 */
export function lookAlikeScore(closeness: number, collegeProminence: number): number {
  return closeness * 10 + collegeProminence * 0.5;
}
