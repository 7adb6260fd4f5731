import { trigrams } from '@ct/contracts';
import type { Db, Queryable } from '@ct/store';
import { collegeWrites } from './repositories/colleges.ts';
import { shortNamesOf } from './short-names.ts';
import {
  isExact,
  lookAlikeScore,
  matchScore,
  nameStartsWith,
  prominence,
  type EntryKind,
} from './suggestion-rank.ts';

interface Entry {
  collegeId: number;
  /** Normalised name, alias or short name */
  key: string;
  /** Official name of the college it points at */
  name: string;
  kind: EntryKind;
  grams: string[];
  /** The key's words, and each word's trigrams (for look-alike checks). */
  words: string[];
  wordGrams: Int32Array[];
  /** The college's prominence (suggestion-rank.ts), worked out when it is stored. */
  prominence: number;
}

/**
 * A word's trigrams (as pg_trgm pads them) as sorted numbers: comparing two words is then a merge of two
 * short integer arrays, with no string hashing (names are normalised to a-z, 0-9 and spaces).
 */
export function wordGrams(word: string): Int32Array {
  const padded = `  ${word} `;
  const codes = new Set<number>();
  for (let i = 0; i + 3 <= padded.length; i++)
    codes.add((padded.charCodeAt(i) << 16) | (padded.charCodeAt(i + 1) << 8) | padded.charCodeAt(i + 2));
  return Int32Array.from(codes).sort();
}

/** Shared trigrams over all trigrams of both words (Jaccard, as pg_trgm's similarity counts). */
function closeness(a: Int32Array, b: Int32Array): number {
  let i = 0;
  let j = 0;
  let shared = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      shared++;
      i++;
      j++;
    } else if (a[i]! < b[j]!) i++;
    else j++;
  }
  return shared / (a.length + b.length - shared);
}

/** A typed word with its trigrams, worked out once per query. */
interface TypedWord {
  word: string;
  grams: Int32Array;
}

interface WordMatch {
  /** Every typed word is the start of a word of the entry. */
  prefix: boolean;
  /** Where the first typed word starts a word of the entry (prefix matches). */
  position: number;
  /** Mean closeness of each typed word to its closest word of the entry (look-alikes). */
  score: number;
}

const typedWords = (n: string): TypedWord[] =>
  n
    .split(' ')
    .filter(Boolean)
    .map((word) => ({ word, grams: wordGrams(word) }));

/**
 * Whether an entry answers the typed words: each one starts a word of the entry, or looks like one (a
 * typo: closeness of at least MIN_WORD_SIMILARITY). Sharing trigrams with the whole text is not enough:
 * "colby" and "bowdoin college" share "col", yet no word of Bowdoin's name is anything like "colby".
 * Null when not.
 */
function matchTyped(
  typed: readonly TypedWord[],
  words: readonly string[],
  grams: readonly Int32Array[],
): WordMatch | null {
  let prefix = true;
  let position = -1;
  let total = 0;
  for (const t of typed) {
    let at = -1;
    for (let i = 0; i < words.length; i++)
      if (words[i]!.startsWith(t.word)) {
        at = i;
        break;
      }
    if (at >= 0) {
      if (position < 0) position = at;
      total += 1;
      continue;
    }
    prefix = false;
    let best = 0;
    for (const g of grams) best = Math.max(best, closeness(t.grams, g));
    if (best < MIN_WORD_SIMILARITY) return null;
    total += best;
  }
  return { prefix, position: Math.max(position, 0), score: total / Math.max(typed.length, 1) };
}

/** `matchTyped` for a normalised query and key (tests and one-off checks). */
export function matchWords(words: readonly string[], key: string): WordMatch | null {
  const own = key.split(' ');
  return matchTyped(typedWords(words.join(' ')), own, own.map(wordGrams));
}

/** Binary search in ascending ids. */
function contains(ids: number[], id: number): boolean {
  let lo = 0;
  let hi = ids.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = ids[mid]!;
    if (v === id) return true;
    if (v < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

function lowerBound(list: readonly string[], key: string): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The index of the first typed word of `typed` each word of `words` starts (all must), or -1. */
function prefixPosition(typed: readonly TypedWord[], words: readonly string[]): number {
  let position = -1;
  for (const t of typed) {
    let at = -1;
    for (let i = 0; i < words.length; i++)
      if (words[i]!.startsWith(t.word)) {
        at = i;
        break;
      }
    if (at < 0) return -1;
    if (position < 0) position = at;
  }
  return position;
}

/** Past the last normalised character ('z'): `word + AFTER` bounds the words starting with `word`. */
const AFTER = '{';

/** A college matching the typed text, through its best-scoring entry. */
interface Candidate {
  e: Entry;
  score: number;
  /** Its official name starts with the typed text (suggestion-rank.ts: listed whenever they all fit). */
  starts: boolean;
}

/** Higher score first; then the shorter text, then alphabetical (stable answers among equals). */
function better(a: Candidate, b: Candidate): boolean {
  if (a.score !== b.score) return a.score > b.score;
  if (a.e.key.length !== b.e.key.length) return a.e.key.length < b.e.key.length;
  return a.e.name < b.e.name;
}

/** Keeps the `limit` best candidates, best first (insertion: `limit` is 10, candidates thousands). */
function insertTop(top: Candidate[], c: Candidate, limit: number): void {
  if (top.length >= limit && !better(c, top[top.length - 1]!)) return;
  let i = top.length;
  while (i > 0 && better(c, top[i - 1]!)) i--;
  top.splice(i, 0, c);
  if (top.length > limit) top.pop();
}

/**
 * A row's updated_at is its transaction's start, and transactions commit out of order: a delta also
 * re-reads rows this much older than the newest one seen (unchanged rows are skipped cheaply).
 */
const LAG_SECONDS = 30;

/** Answers kept for repeated queries (cleared whenever the index changes). */
const MAX_CACHED_ANSWERS = 20_000;

/** Share of the typed text's trigrams an entry must have to be a candidate for the similar ones. */
const MIN_SIMILARITY = 0.5;
/** How close a typed word must be to a word of the entry when it does not start one (a typo). */
const MIN_WORD_SIMILARITY = 0.4;

/** Changed entries a catch-up inserts one by one into the sorted words; past this, it sorts them anew. */
const MAX_SPLICED_WORDS = 500;

/** One row of the college table, as the index reads it. */
interface CollegeRow {
  id: number;
  name: string;
  key: string;
  aliases: string[] | null;
  scorecard_id: number | null;
  undergrads: number | null;
  degree: number | null;
  main: boolean | null;
}

/**
 * The names, aliases and known short names of cached colleges in memory, for suggestions in well under a
 * millisecond. A college matches when every typed word starts a word of one of them (or, failing any such
 * match, resembles one: a typo); matches are ordered by how likely a student means each college, by the
 * rule in suggestion-rank.ts. The database stays the source of truth: before answering, the index catches
 * up with every change committed before the request arrived (one cheap query shared by all requests
 * waiting at that moment, then only the changed rows).
 */
export class SuggestionIndex {
  private entries: Array<Entry | undefined> = [];
  private byCollege = new Map<number, number[]>();
  /** What each college's entries were built from, to skip rows that did not change. */
  private built = new Map<number, string>();
  /** Every word of every entry, sorted, with the entry it is in (ids of dropped entries are skipped). */
  private wordKeys: string[] = [];
  private wordIds: number[] = [];
  /** Entries stored since the words were last sorted, to add to them. */
  private pending: number[] = [];
  /** Trigram → entry ids; ids of dropped entries stay until the lists are rebuilt (skipped when read). */
  private postings = new Map<string, number[]>();
  private dead = 0;
  /** Scratch counters for `similar`, one per entry id. */
  private counts = new Uint16Array(0);
  /** Scratch marks (the query's number) of the entries a query has looked at, one per entry id. */
  private marks = new Uint32Array(0);
  private queryNo = 0;
  private seenAt: string | null = null;
  private count = -1;
  private answers = new Map<string, string[]>();
  private running: Promise<void> | null = null;
  private queued: Promise<void> | null = null;
  /** This process's college writes when the last check began (-1: never checked). */
  private checkedWrites = -1;

  constructor(private readonly db: Queryable & Partial<Pick<Db, 'kind'>>) {}

  /** Up to `limit` official names for a normalised query (see the class). */
  async suggest(n: string, limit: number): Promise<string[]> {
    await this.fresh();
    // Students type the same beginnings over and over: answers are kept until the index changes.
    const key = `${limit}|${n}`;
    const cached = this.answers.get(key);
    if (cached) return cached;
    const out = this.compute(n, limit);
    if (this.answers.size >= MAX_CACHED_ANSWERS) this.answers.clear();
    this.answers.set(key, out);
    return out;
  }

  private compute(n: string, limit: number): string[] {
    const typed = typedWords(n);
    if (!typed.length || limit <= 0) return [];
    // Candidates: the entries with a word starting with the typed word that starts the fewest.
    let from = 0;
    let to = -1;
    for (const t of typed) {
      const lo = lowerBound(this.wordKeys, t.word);
      const hi = lowerBound(this.wordKeys, t.word + AFTER);
      if (to < 0 || hi - lo < to - from) {
        from = lo;
        to = hi;
      }
    }
    if (this.marks.length < this.entries.length) this.marks = new Uint32Array(this.entries.length * 2);
    const mark = ++this.queryNo;
    const best = new Map<number, Candidate>();
    for (let i = from; i < to; i++) {
      const id = this.wordIds[i]!;
      if (this.marks[id] === mark) continue;
      this.marks[id] = mark;
      const e = this.entries[id];
      if (!e) continue;
      const position = prefixPosition(typed, e.words);
      if (position < 0) continue;
      const c = {
        e,
        score: matchScore(e.kind, e.words, position, e.key === n, e.prominence),
        starts: e.kind === 'name' && nameStartsWith(e.key, e.words, n),
      };
      const held = best.get(e.collegeId);
      if (!held) best.set(e.collegeId, c);
      else {
        const starts = held.starts || c.starts;
        if (better(c, held)) best.set(e.collegeId, { ...c, starts });
        else held.starts = starts;
      }
    }
    // Exact matches and the names starting with the text are listed when they fit; the best of the other
    // matches fill what is left (suggestion-rank.ts).
    const first: Candidate[] = [];
    let firsts = 0;
    for (const c of best.values())
      if (c.starts || isExact(c.score)) {
        firsts++;
        insertTop(first, c, limit);
      }
    const rest: Candidate[] = [];
    if (firsts < limit)
      for (const c of best.values()) if (!c.starts && !isExact(c.score)) insertTop(rest, c, limit - firsts);
    const out = [...first, ...rest]
      .sort((a, b) => (better(a, b) ? -1 : better(b, a) ? 1 : 0))
      .map((c) => c.e.name);
    if (out.length >= limit) return out;
    return [...out, ...this.similar(n, typed, limit - out.length, best)];
  }

  /** Look-alikes: entries a typed word only resembles a word of (colleges in `matched` left out). */
  private similar(
    n: string,
    typed: readonly TypedWord[],
    limit: number,
    matched: Map<number, Candidate>,
  ): string[] {
    const grams = trigrams(n);
    if (!grams.length) return [];
    if (this.counts.length < this.entries.length) this.counts = new Uint16Array(this.entries.length * 2);
    const counts = this.counts;
    const need = Math.ceil(grams.length * MIN_SIMILARITY);
    // An entry sharing `need` of k trigrams is in at least one of the k - need + 1 rarest lists: collect
    // candidates from those, then look each up in the common lists (sorted ids: binary search).
    const lists = grams.map((g) => this.postings.get(g) ?? []).sort((a, b) => a.length - b.length);
    const seeds = lists.length - need + 1;
    const touched: number[] = [];
    for (let l = 0; l < seeds; l++) {
      const ids = lists[l]!;
      for (let i = 0; i < ids.length; i++) {
        const id = ids[i]!;
        const c = counts[id]!;
        counts[id] = c + 1;
        if (c === 0) touched.push(id);
      }
    }
    for (let l = seeds; l < lists.length; l++) {
      const ids = lists[l]!;
      for (const id of touched) if (contains(ids, id)) counts[id] = counts[id]! + 1;
    }
    const best = new Map<number, Candidate>();
    for (const id of touched) {
      const shared = counts[id]!;
      counts[id] = 0;
      if (shared < need) continue;
      const e = this.entries[id];
      if (!e || matched.has(e.collegeId)) continue;
      const m = matchTyped(typed, e.words, e.wordGrams);
      if (!m) continue;
      const c = { e, score: lookAlikeScore(m.score, e.prominence), starts: false };
      const held = best.get(e.collegeId);
      if (!held || better(c, held)) best.set(e.collegeId, c);
    }
    const top: Candidate[] = [];
    for (const c of best.values()) insertTop(top, c, limit);
    return top.map((c) => c.e.name);
  }

  /**
   * Resolves once the index has seen every change committed before the call: joins a check that has not
   * started yet, or queues one after the check under way (which may have started too early). Awaited at
   * start-up, it builds the whole index.
   */
  fresh(): Promise<void> {
    // PGlite: this process is the table's only writer, so nothing changed if it wrote nothing since the
    // last check (the check reads the whole table's version: milliseconds there, on every request).
    if (this.db.kind === 'pglite' && collegeWrites(this.db) === this.checkedWrites) return Promise.resolve();
    if (this.queued) return this.queued;
    if (!this.running) return this.start();
    this.queued = this.running
      .catch(() => {})
      .then(() => {
        this.queued = null;
        return this.start();
      });
    return this.queued;
  }

  private start(): Promise<void> {
    const run = this.catchUp().finally(() => {
      if (this.running === run) this.running = null;
    });
    this.running = run;
    return run;
  }

  private async catchUp(): Promise<void> {
    const writes = collegeWrites(this.db);
    const v = await this.db.query<{ at: string | null; n: number }>(
      'SELECT at, n FROM colleges.college_version()',
    );
    const { at, n } = v.rows[0] ?? { at: null, n: 0 };
    if (at === this.seenAt && n === this.count) {
      this.checkedWrites = writes;
      return;
    }
    // Rows only grow or change in place; fewer rows than seen means a reset: load everything again.
    const full = this.seenAt === null || n < this.count;
    // The Scorecard figures the ranking reads (suggestion-rank.ts) are in the document: UGDS, PREDDEG, MAIN.
    const rows = await this.db.query<CollegeRow>(
      `SELECT c.id, c.name, c.normalized_name AS key, c.scorecard_id,
              (c.document->'demographics'->>'schoolSize')::float8 AS undergrads,
              (c.document->'demographics'->>'predominantDegree')::float8 AS degree,
              (c.document->'demographics'->>'mainCampus')::boolean AS main,
              (SELECT array_agg(a.normalized_alias ORDER BY a.normalized_alias) FROM colleges.college_alias a
               WHERE a.college_id = c.id) AS aliases
       FROM colleges.college c
       ${full ? '' : `WHERE c.updated_at >= ($1::text)::timestamp AT TIME ZONE 'UTC' - interval '${LAG_SECONDS} seconds'`}`,
      full ? [] : [this.seenAt],
    );
    if (full) this.clear();
    for (const r of rows.rows) this.put(r);
    this.sortWords(full);
    // In the same synchronous step as the changes: no answer from before them survives.
    this.answers.clear();
    this.seenAt = at;
    this.count = n;
    this.checkedWrites = writes;
  }

  /** Adds the words of entries stored since the last time to the sorted words (all anew when many). */
  private sortWords(all: boolean): void {
    if (!all && this.pending.length <= MAX_SPLICED_WORDS) {
      for (const id of this.pending) {
        for (const w of this.entries[id]?.words ?? []) {
          const at = lowerBound(this.wordKeys, w);
          this.wordKeys.splice(at, 0, w);
          this.wordIds.splice(at, 0, id);
        }
      }
      this.pending = [];
      return;
    }
    const items: Array<{ w: string; id: number }> = [];
    this.entries.forEach((e, id) => {
      if (e) for (const w of e.words) items.push({ w, id });
    });
    items.sort((a, b) => (a.w < b.w ? -1 : a.w > b.w ? 1 : a.id - b.id));
    this.wordKeys = items.map((x) => x.w);
    this.wordIds = items.map((x) => x.id);
    this.pending = [];
  }

  /** Rebuilds the trigram lists and the sorted words without the ids of dropped entries. */
  private compact(): void {
    this.postings.clear();
    this.entries.forEach((e, id) => {
      if (!e) return;
      for (const g of e.grams) {
        const list = this.postings.get(g);
        if (list) list.push(id);
        else this.postings.set(g, [id]);
      }
    });
    this.sortWords(true);
    this.dead = 0;
  }

  private clear(): void {
    this.entries = [];
    this.byCollege.clear();
    this.built.clear();
    this.wordKeys = [];
    this.wordIds = [];
    this.pending = [];
    this.postings.clear();
    this.dead = 0;
  }

  /** Replaces what the index holds for one college: its name, aliases and short names. */
  private put(r: CollegeRow): void {
    const collegeId = Number(r.id);
    const score = prominence({
      undergrads: r.undergrads === null ? null : Number(r.undergrads),
      predominantDegree: r.degree === null ? null : Number(r.degree),
      mainCampus: r.main,
    });
    const shorts = r.scorecard_id === null ? [] : shortNamesOf(Number(r.scorecard_id));
    const keys: Array<[string, EntryKind]> = [
      [r.key, 'name'],
      ...(r.aliases ?? []).map((a) => [a, 'alias'] as [string, EntryKind]),
      ...shorts.map((s) => [s, 'short'] as [string, EntryKind]),
    ];
    const signature = `${r.name}\n${score}\n${keys.map(([k, kind]) => `${kind}:${k}`).join('\n')}`;
    if (this.built.get(collegeId) === signature) return;
    for (const id of this.byCollege.get(collegeId) ?? []) this.drop(id);
    const ids: number[] = [];
    for (const [k, kind] of keys) {
      const id = this.entries.length;
      const words = k.split(' ').filter(Boolean);
      const e: Entry = {
        collegeId,
        key: k,
        name: r.name,
        kind,
        grams: trigrams(k),
        words,
        wordGrams: words.map(wordGrams),
        prominence: score,
      };
      this.entries.push(e);
      ids.push(id);
      this.pending.push(id);
      for (const g of e.grams) {
        const list = this.postings.get(g);
        if (list) list.push(id);
        else this.postings.set(g, [id]);
      }
    }
    this.byCollege.set(collegeId, ids);
    this.built.set(collegeId, signature);
  }

  private drop(id: number): void {
    if (!this.entries[id]) return;
    this.entries[id] = undefined;
    if (++this.dead > 1000 && this.dead > this.entries.length / 4) this.compact();
  }
}
