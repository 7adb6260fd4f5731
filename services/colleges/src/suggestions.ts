import { trigrams } from '@ct/contracts';
import type { Db, Queryable } from '@ct/store';
import { collegeWrites } from './repositories/colleges.ts';

interface Entry {
  collegeId: number;
  /** Normalised name or alias */
  key: string;
  /** Official name of the college it points at */
  name: string;
  alias: boolean;
  grams: string[];
  /** The key's words, and each word's trigrams (for look-alike checks). */
  words: string[];
  wordGrams: Int32Array[];
}

interface SortedKey {
  key: string;
  id: number;
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

function lowerBound(list: SortedKey[], key: string): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]!.key < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
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

/**
 * The names and aliases of cached colleges in memory, for suggestions in well under a millisecond: names
 * starting with the typed text (alphabetical), then aliases starting with it, then entries with a word
 * starting with each typed word, then look-alikes (each typed word close to a word of the entry). The database stays the source of truth: before answering, the index catches up with
 * every change committed before the request arrived (one cheap query shared by all requests waiting at
 * that moment, then only the changed rows).
 */
export class SuggestionIndex {
  private entries: Array<Entry | undefined> = [];
  private byCollege = new Map<number, number[]>();
  private names: SortedKey[] = [];
  private aliases: SortedKey[] = [];
  /** Trigram → entry ids; ids of dropped entries stay until the lists are rebuilt (skipped when read). */
  private postings = new Map<string, number[]>();
  private dead = 0;
  /** Scratch counters for `similar`, one per entry id. */
  private counts = new Uint16Array(0);
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
    const out: string[] = [];
    const seen = new Set<string>();
    const take = (list: SortedKey[]) => {
      for (let i = lowerBound(list, n); i < list.length && out.length < limit; i++) {
        const { key, id } = list[i]!;
        if (!key.startsWith(n)) break;
        const e = this.entries[id]!;
        if (!seen.has(e.name)) {
          seen.add(e.name);
          out.push(e.name);
        }
      }
    };
    take(this.names);
    take(this.aliases);
    if (out.length >= limit) return out;
    return [...out, ...this.similar(n, limit - out.length, seen)];
  }

  private similar(n: string, limit: number, exclude: Set<string>): string[] {
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
    const typed = typedWords(n);
    const ranked: Array<{ e: Entry; rank: WordMatch }> = [];
    for (const id of touched) {
      const shared = counts[id]!;
      counts[id] = 0;
      if (shared < need) continue;
      const e = this.entries[id];
      if (!e || exclude.has(e.name)) continue;
      const rank = matchTyped(typed, e.words, e.wordGrams);
      if (rank) ranked.push({ e, rank });
    }
    // Entries with a word starting with each typed word first (the earlier that word, the better), then
    // look-alikes by how close their words are; shorter and then alphabetical among equals.
    ranked.sort(
      (a, b) =>
        Number(b.rank.prefix) - Number(a.rank.prefix) ||
        (a.rank.prefix ? a.rank.position - b.rank.position : b.rank.score - a.rank.score) ||
        a.e.key.length - b.e.key.length ||
        (a.e.name < b.e.name ? -1 : a.e.name > b.e.name ? 1 : 0),
    );
    const out: string[] = [];
    for (const { e } of ranked) {
      if (out.length >= limit) break;
      if (!exclude.has(e.name)) {
        exclude.add(e.name);
        out.push(e.name);
      }
    }
    return out;
  }

  /**
   * Resolves once the index has seen every change committed before the call: joins a check that has not
   * started yet, or queues one after the check under way (which may have started too early).
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
    const rows = await this.db.query<{ id: number; name: string; key: string; aliases: string[] | null }>(
      `SELECT c.id, c.name, c.normalized_name AS key,
              (SELECT array_agg(a.normalized_alias ORDER BY a.normalized_alias) FROM colleges.college_alias a
               WHERE a.college_id = c.id) AS aliases
       FROM colleges.college c
       ${full ? '' : `WHERE c.updated_at >= ($1::text)::timestamp AT TIME ZONE 'UTC' - interval '${LAG_SECONDS} seconds'`}`,
      full ? [] : [this.seenAt],
    );
    if (full) this.clear();
    for (const r of rows.rows) this.put(Number(r.id), r.name, r.key, r.aliases ?? []);
    // In the same synchronous step as the changes: no answer from before them survives.
    this.answers.clear();
    this.seenAt = at;
    this.count = n;
    this.checkedWrites = writes;
  }

  /** Rebuilds the trigram lists without the ids of dropped entries. */
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
    this.dead = 0;
  }

  private clear(): void {
    this.entries = [];
    this.byCollege.clear();
    this.names = [];
    this.aliases = [];
    this.postings.clear();
    this.dead = 0;
  }

  /** Replaces what the index holds for one college. */
  private put(collegeId: number, name: string, key: string, aliases: string[]): void {
    const held = (this.byCollege.get(collegeId) ?? []).map((id) => this.entries[id]!);
    const same =
      held.length === aliases.length + 1 &&
      held.every((e, i) => e.name === name && e.key === (i === 0 ? key : aliases[i - 1]));
    if (same) return;
    for (const id of this.byCollege.get(collegeId) ?? []) this.drop(id);
    const ids: number[] = [];
    for (const [k, alias] of [[key, false], ...aliases.map((a) => [a, true] as const)] as Array<
      [string, boolean]
    >) {
      const id = this.entries.length;
      const words = k.split(' ');
      const e: Entry = {
        collegeId,
        key: k,
        name,
        alias,
        grams: trigrams(k),
        words,
        wordGrams: words.map(wordGrams),
      };
      this.entries.push(e);
      ids.push(id);
      const list = alias ? this.aliases : this.names;
      list.splice(lowerBound(list, k), 0, { key: k, id });
      for (const g of e.grams) {
        const list = this.postings.get(g);
        if (list) list.push(id);
        else this.postings.set(g, [id]);
      }
    }
    this.byCollege.set(collegeId, ids);
  }

  private drop(id: number): void {
    const e = this.entries[id];
    if (!e) return;
    const list = e.alias ? this.aliases : this.names;
    for (let i = lowerBound(list, e.key); i < list.length && list[i]!.key === e.key; i++) {
      if (list[i]!.id === id) {
        list.splice(i, 1);
        break;
      }
    }
    this.entries[id] = undefined;
    if (++this.dead > 1000 && this.dead > this.entries.length / 4) this.compact();
  }
}
