import { normaliseCollegeName, type College, type Source } from '@ct/contracts';
import {
  assembleCollege,
  CommonAppGrid,
  governmentData,
  recordFromCsv,
  SCORECARD_SOURCE_TITLE,
  type GovernmentData,
} from '@ct/providers';
import type { Db, Queryable } from '@ct/store';
import { CollegeRepository, disambiguatedName, type UpsertOptions } from './repositories/colleges.ts';
import { SnapshotLoads } from './repositories/snapshot.ts';
import { csvRows, ImportSourceError, openScorecardSource } from './scorecard-source.ts';

export { ImportSourceError } from './scorecard-source.ts';

/** Why a college known from government data has no deadlines, prompts or tips yet. */
export const FACTS_LATER = "from the college's own pages, when an AI provider is configured";

export interface ImportProgress {
  phase: 'reading' | 'writing';
  /** reading: bytes read; writing: institutions written */
  done: number;
  /** reading: total bytes when known; writing: institutions to write */
  total: number | null;
}

export interface ImportSummary {
  /** Rows in the file */
  rows: number;
  /** Rows that were an institution (had a UNITID and a name) */
  institutions: number;
  inserted: number;
  updated: number;
  /** Institutions not stored (their name and place were taken by another in the same file) */
  skipped: number;
  /** Institutions stored as "Name (City, ST)" because another has the same official name */
  disambiguated: number;
  /** Institutions given deadlines or requirements from the Common App grid */
  withGrid: number;
  /** sha256 of every byte read from the source (the zip or CSV as stored or downloaded) */
  sha256: string;
  bytes: number;
  zipped: boolean;
  /** The release date the official file name carries (YYYY-MM-DD), if any */
  release: string | null;
  ms: number;
}

/** One institution's government data, with the sources to record for its parts (by document path). */
export interface GovernmentItem {
  gov: GovernmentData;
  sources?: Record<string, Source>;
}

export interface DocumentOptions {
  /** ISO instant recorded as when the data was gathered */
  gatheredAt: string;
  /** The Common App grid that fills deadlines and requirements (null: none) */
  grid: CommonAppGrid | null;
  /** When the grid's deadlines are judged (the coming two admission cycles) */
  now?: Date;
}

/**
 * College documents from government data, ready to store: institutions sharing an official name are kept
 * apart by place ("Columbia College (Columbia, MO)"), the Common App grid gives deadlines and requirements
 * where the college is in it (by its Scorecard id), and the facts gathered from a college's own pages are
 * listed as missing until an AI provider gathers them.
 */
export function collegeDocuments(
  items: GovernmentItem[],
  opts: DocumentOptions,
): { docs: College[]; disambiguated: number; withGrid: number } {
  const count = new Map<string, number>();
  for (const { gov } of items) {
    const k = normaliseCollegeName(gov.name);
    count.set(k, (count.get(k) ?? 0) + 1);
  }
  // Institutions that share name, city and state ("Western Technical College", El Paso, TX: 224660 and
  // 224679), by their "Name (City, ST)".
  const twinsOf = new Map<string, GovernmentData[]>();
  for (const { gov } of items) {
    const d = gov.demographics;
    const place = [d.schoolCity, d.schoolState].filter(Boolean).join(', ');
    const k = normaliseCollegeName(place ? `${gov.name} (${place})` : gov.name);
    twinsOf.set(k, [...(twinsOf.get(k) ?? []), gov]);
  }
  let disambiguated = 0;
  let withGrid = 0;
  const gridDate = opts.grid?.file._meta.source_updated;
  const docs = items.map(({ gov, sources }) => {
    const d = gov.demographics;
    const local =
      opts.grid?.find(gov.name, gov.aliases, d.schoolCity, d.schoolState, gov.scorecardId, opts.now) ?? null;
    if (local) withGrid++;
    let doc = assembleCollege({
      requestedName: gov.name,
      government: gov,
      facts: null,
      factsReason: FACTS_LATER,
      local,
      gatheredAt: opts.gatheredAt,
    }).college;
    const own = { ...doc.sources, ...sources };
    // The grid's facts are dated by the grid's own update, not by this load.
    if (local && gridDate && /^\d{4}-\d{2}-\d{2}$/.test(gridDate)) {
      for (const key of ['info.deadlines', 'info.requirements']) {
        const s = own[key];
        if (s && s.url === local.source.url) own[key] = { ...s, gatheredAt: `${gridDate}T00:00:00.000Z` };
      }
    }
    doc = { ...doc, sources: own };
    if ((count.get(normaliseCollegeName(gov.name)) ?? 0) < 2) return doc;
    disambiguated++;
    const placed = disambiguatedName(doc);
    const twins = twinsOf.get(normaliseCollegeName(placed));
    if (!twins || twins.length < 2) return { ...doc, name: placed, aliases: [doc.name, ...doc.aliases] };
    // Same name, city and state (issue 25): the place cannot tell them apart, so what the data has does.
    return {
      ...doc,
      name: twinName(doc, gov, twins),
      aliases: [doc.name, placed, ...doc.aliases],
    };
  });
  return { docs, disambiguated, withGrid };
}

const fmt = (n: number) => n.toLocaleString('en-US');

/**
 * The display name of one of several institutions with the same name, city and state: its place, then
 * what the data has that tells them apart, in this order: undergraduate size (when every twin's is known
 * and they differ), main or branch campus (when exactly one is the main campus), else its UNITID.
 * "Western Technical College (El Paso, TX, 1,303 undergraduates)".
 */
export function twinName(doc: College, gov: GovernmentData, twins: readonly GovernmentData[]): string {
  const d = doc.demographics;
  const place = [d.schoolCity, d.schoolState].filter(Boolean).join(', ');
  const sizes = twins.map((t) => t.demographics.schoolSize);
  const bySize = sizes.every((x) => x !== null) && new Set(sizes).size === sizes.length;
  const mains = twins.filter((t) => t.mainCampus).length;
  const detail = bySize
    ? `${fmt(gov.demographics.schoolSize!)} undergraduates`
    : mains === 1
      ? gov.mainCampus
        ? 'main campus'
        : `branch campus${twins.length > 2 ? `, UNITID ${gov.scorecardId}` : ''}`
      : `UNITID ${gov.scorecardId}`;
  return `${doc.name} (${place}, ${detail})`;
}

/**
 * Stores college documents in batches (see CollegeRepository.upsertColleges), each batch in the caller's
 * transaction or its own. Institutions an admin removed are left out (`removed`): a bulk load never
 * undoes an admin's delete or merge.
 */
export async function writeColleges(
  db: Db,
  docs: College[],
  opts: UpsertOptions & {
    batchSize?: number;
    tx?: Queryable;
    onProgress?: (done: number, total: number) => void;
  },
): Promise<{ inserted: number; updated: number; skipped: number; removed: number }> {
  const repo = new CollegeRepository(db);
  const batchSize = opts.batchSize ?? 500;
  let inserted = 0;
  let updated = 0;
  let skipped = 0;
  let removed = 0;
  for (let i = 0; i < docs.length; i += batchSize) {
    const all = docs.slice(i, i + batchSize);
    const gone = await repo.removedInstitutions(
      all.flatMap((d) => (d.scorecardId === null ? [] : [d.scorecardId])),
      opts.tx,
    );
    const batch = gone.size ? all.filter((d) => d.scorecardId === null || !gone.has(d.scorecardId)) : all;
    removed += all.length - batch.length;
    const r = await repo.upsertColleges(batch, opts, opts.tx);
    inserted += r.inserted;
    updated += r.updated;
    skipped += r.rows.filter((x) => x === null).length;
    opts.onProgress?.(Math.min(i + batchSize, docs.length), docs.length);
    // PGlite runs in this thread and answers through promise callbacks only: without a turn of the event
    // loop between batches, a first-start load would hold back every request (and the listen) until done.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return { inserted, updated, skipped, removed };
}

const REQUIRED_COLUMNS = ['UNITID', 'INSTNM'];

/**
 * Reads the official College Scorecard institution file (Most-Recent-Cohorts-Institution, as the zip the
 * Department of Education publishes or its CSV) from a path or URL, streamed, and upserts every
 * institution's government data in batched transactions. Colleges already stored keep what was gathered
 * from their pages; only their government data is refreshed. The load is recorded (colleges.snapshot_load),
 * so the snapshot shipped with the product never overwrites newer official data.
 */
export async function importScorecard(
  source: string,
  db: Db,
  opts: { batchSize?: number; onProgress?: (p: ImportProgress) => void; grid?: CommonAppGrid | null } = {},
): Promise<ImportSummary> {
  const started = performance.now();
  const src = await openScorecardSource(source, (p) =>
    opts.onProgress?.({ phase: 'reading', done: p.bytes, total: p.total }),
  );
  const parser = csvRows(src);
  const schools: GovernmentData[] = [];
  let rows = 0;
  try {
    for await (const row of parser as AsyncIterable<Record<string, string>>) {
      if (rows === 0) {
        const missing = REQUIRED_COLUMNS.filter((c) => !(c in row));
        if (missing.length) {
          throw new ImportSourceError(
            `This is not the College Scorecard institution CSV: no ${missing.join(', ')} column.`,
          );
        }
      }
      rows++;
      const school = governmentData(recordFromCsv(row));
      if (school) schools.push(school);
    }
  } catch (err) {
    src.csv.destroy();
    if (err instanceof ImportSourceError) throw err;
    throw new ImportSourceError(
      `The file could not be read as CSV: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  if (!rows) throw new ImportSourceError('The file holds no rows.');

  const gatheredAt = new Date().toISOString();
  const release = src.release;
  const title = release ? `${SCORECARD_SOURCE_TITLE}, ${release} release` : SCORECARD_SOURCE_TITLE;
  const grid = opts.grid === undefined ? await CommonAppGrid.shipped() : opts.grid;
  const { docs, disambiguated, withGrid } = collegeDocuments(
    schools.map((gov) => ({ gov })),
    { gatheredAt, grid },
  );
  for (const doc of docs) {
    for (const key of ['name', 'demographics', 'demographics.finance'] as const) {
      const s = doc.sources[key];
      if (s) doc.sources[key] = { ...s, title };
    }
  }
  const written = await writeColleges(db, docs, {
    mode: 'government',
    ...(opts.batchSize ? { batchSize: opts.batchSize } : {}),
    onProgress: (done, total) => opts.onProgress?.({ phase: 'writing', done, total }),
  });
  const sha256 = src.sha256();
  const ms = Math.round(performance.now() - started);
  await new SnapshotLoads(db).record({
    version: `import:${sha256.slice(0, 16)}`,
    kind: 'import',
    source: src.name,
    sha256,
    released: release,
    colleges: docs.length,
    ms,
  });
  return {
    rows,
    institutions: docs.length,
    ...written,
    disambiguated,
    withGrid,
    sha256,
    bytes: src.bytesRead(),
    zipped: src.zipped(),
    release,
    ms,
  };
}
