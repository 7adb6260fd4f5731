import { createHash } from 'node:crypto';
import type { Source } from '@ct/contracts';
import {
  CommonAppGrid,
  comingCycles,
  governmentData,
  recordFromCsv,
  SCORECARD_SOURCE_TITLE,
  scorecardPageUrl,
} from '@ct/providers';
import type { Db, Queryable } from '@ct/store';
import { collegeDocuments, writeColleges, type GovernmentItem } from './scorecard-import.ts';
import { readSnapshotFile, snapshotRecords, type SnapshotFile, type SnapshotGroup } from './snapshot-file.ts';
import { SnapshotLoads } from './repositories/snapshot.ts';

/** Document paths a Scorecard column's value ends up at, for the columns not in the main group. */
const PATHS: Record<string, string[]> = {
  INSTURL: ['links'],
  NPCURL: ['demographics.priceCalcUrl'],
  MD_EARN_WNE_P10: ['demographics.finance.medianEarnings'],
  FAMINC: ['demographics.finance.avgFamilyIncome'],
  MD_FAMINC: ['demographics.finance.medianFamilyIncome'],
  APPL_SCH_N: ['demographics.finance.fafsaApplications'],
  FIRST_GEN: ['demographics.demographics.firstGen'],
  PAR_ED_PCT_1STGEN: ['demographics.demographics.firstGen'],
  C150_4_PELL: ['demographics.outcomes'],
  C150_4_NOLOANNOPELL: ['demographics.outcomes'],
  C150_4_POOLED: ['demographics.outcomes'],
  FIRSTGEN_COMP_ORIG_YR4_RT: ['demographics.outcomes'],
  C150_L4_PELL: ['demographics.outcomes'],
  C150_L4_NOLOANNOPELL: ['demographics.outcomes'],
};

/** College.missing labels whose Scorecard columns a snapshot may not carry at all. */
const LABEL_COLUMNS: Array<[string, string[]]> = [
  ['First-generation share', ['FIRST_GEN', 'PAR_ED_PCT_1STGEN']],
  ['Average family income', ['FAMINC']],
  ['Median family income', ['MD_FAMINC']],
  ['FAFSA applications', ['APPL_SCH_N']],
];
const NOT_PUBLISHED = '(not published by the College Scorecard)';
const NOT_SHIPPED = '(not in the College Scorecard file this data comes from)';

export interface SnapshotLoadResult {
  /** false when this database already holds this snapshot (or newer imported data) */
  loaded: boolean;
  /** Why nothing was loaded */
  skipped?: 'already loaded' | 'newer data imported';
  version: string;
  /** Data year of the main group, e.g. "2021-22" */
  dataYear: string;
  colleges: number;
  inserted: number;
  updated: number;
  /** Colleges given deadlines or requirements from the Common App grid */
  withGrid: number;
  ms: number;
}

const titleOf = (g: SnapshotGroup) => `${SCORECARD_SOURCE_TITLE}, ${g.dataYear}`;
const dateOf = (g: SnapshotGroup, fallback: string) =>
  g.released ? `${g.released}T00:00:00.000Z` : fallback;

/** The version recorded for a load: the snapshot's data, the grid's facts and the admission cycle they were judged in. */
export function loadVersion(snapshot: SnapshotFile, grid: CommonAppGrid | null, now: Date): string {
  const gridHash = grid
    ? createHash('sha256').update(JSON.stringify(grid.file.colleges)).digest('hex').slice(0, 12)
    : 'none';
  return `snapshot:${snapshot.version}+grid:${gridHash}+cycle:${comingCycles(now).from.slice(0, 4)}`;
}

/** Government items from the snapshot, each part's source titled with the year its values describe. */
function snapshotItems(
  snapshot: SnapshotFile,
  loadedAt: string,
): { items: GovernmentItem[]; absent: Set<string> } {
  const main = snapshot.groups.find((g) => g.columns.includes('INSTNM')) ?? snapshot.groups[0]!;
  const others = snapshot.groups.filter((g) => g !== main);
  const absent = new Set(
    LABEL_COLUMNS.filter(([, cols]) => !cols.some((c) => snapshot.columns.includes(c))).map(
      ([label]) => `${label} ${NOT_PUBLISHED}`,
    ),
  );
  const items: GovernmentItem[] = [];
  for (const rec of snapshotRecords(snapshot)) {
    const gov = governmentData(recordFromCsv(rec));
    if (!gov) continue;
    const url = scorecardPageUrl(gov.scorecardId);
    const source = (g: SnapshotGroup): Source => ({
      url,
      title: titleOf(g),
      gatheredAt: dateOf(g, loadedAt),
      dataYear: g.dataYear,
      released: g.released,
    });
    const sources: Record<string, Source> = {
      name: source(main),
      demographics: source(main),
      'demographics.finance': source(main),
      ...(gov.aliases.length ? { aliases: source(main) } : {}),
    };
    for (const g of others) {
      for (const col of g.columns) {
        if (rec[col] === undefined) continue;
        for (const path of PATHS[col] ?? []) sources[path] = source(g);
      }
    }
    items.push({ gov, sources });
  }
  return { items, absent };
}

/** Rows per batch of the first start's load on the embedded store, and on Postgres. */
const EMBEDDED_BATCH = 100;
const SERVER_BATCH = 500;

/**
 * Loads the College Scorecard snapshot shipped with the product, with the Common App grid facts, into an
 * empty (or older) database: every institution becomes a complete College document (official figures,
 * net price, a requirements checklist's facts), so search, suggestions, compare and Add to Profile work
 * with no API key. Runs once per version: the version loaded is recorded, and later starts skip at the
 * cost of one query. A different shipped snapshot (or a new admission cycle, which changes which grid
 * deadlines apply) loads again: colleges whose facts were gathered from their pages keep them and get the
 * new government figures; the others are replaced whole. Official data an operator imported that is newer
 * than the snapshot is never overwritten. On Postgres, one transaction under an advisory lock: replicas
 * starting together load once, and a crash mid-load leaves nothing half-loaded.
 */
export async function loadSnapshot(
  db: Db,
  opts: {
    file?: string;
    grid?: CommonAppGrid | null;
    now?: Date;
    batchSize?: number;
    onProgress?: (done: number, total: number) => void;
  } = {},
): Promise<SnapshotLoadResult> {
  const started = performance.now();
  const now = opts.now ?? new Date();
  const snapshot = readSnapshotFile(opts.file);
  const grid = opts.grid === undefined ? await CommonAppGrid.shipped() : opts.grid;
  const version = loadVersion(snapshot, grid, now);
  const main = snapshot.groups.find((g) => g.columns.includes('INSTNM')) ?? snapshot.groups[0]!;
  const loads = new SnapshotLoads(db);
  const result = (r: Partial<SnapshotLoadResult>): SnapshotLoadResult => ({
    loaded: false,
    version,
    dataYear: main.dataYear,
    colleges: 0,
    inserted: 0,
    updated: 0,
    withGrid: 0,
    ms: Math.round(performance.now() - started),
    ...r,
  });
  if (await loads.has(version)) return result({ skipped: 'already loaded' });

  const load = async (tx: Queryable | undefined): Promise<SnapshotLoadResult> => {
    const q = tx ?? db;
    if (await loads.importNewerThan(main.released, q)) {
      await loads.record(
        {
          version,
          kind: 'snapshot',
          source: `${snapshot.source.input}, ${main.dataYear} (not loaded: newer official data was imported)`,
          sha256: snapshot.source.inputSha256,
          released: main.released,
          colleges: 0,
          ms: 0,
        },
        q,
      );
      return result({ skipped: 'newer data imported' });
    }
    const loadedAt = now.toISOString();
    const { items, absent } = snapshotItems(snapshot, loadedAt);
    const { docs, withGrid } = collegeDocuments(items, { gatheredAt: loadedAt, grid, now });
    for (const doc of docs) {
      doc.missing = doc.missing.map((m) => (absent.has(m) ? m.replace(NOT_PUBLISHED, NOT_SHIPPED) : m));
    }
    // Facts gathered from a college's pages are kept (factsGathered: false); the rest is replaced.
    const written = await writeColleges(db, docs, {
      mode: 'replace',
      factsGathered: false,
      ...(tx ? { tx } : {}),
      // Embedded: small batches, so a request waits at most one batch (~70 ms here) while the first start
      // loads; 500-row batches held each request back a third of a second, and several turns a second.
      batchSize: opts.batchSize ?? (db.kind === 'pglite' ? EMBEDDED_BATCH : SERVER_BATCH),
      ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
    });
    const ms = Math.round(performance.now() - started);
    await loads.record(
      {
        version,
        kind: 'snapshot',
        source: `${snapshot.source.input}, ${main.dataYear}`,
        sha256: snapshot.source.inputSha256,
        released: main.released,
        colleges: docs.length,
        ms,
      },
      q,
    );
    return result({
      loaded: true,
      colleges: docs.length,
      inserted: written.inserted,
      updated: written.updated,
      withGrid,
      ms,
    });
  };

  // The embedded store has one process and one connection: batches in their own transactions let the
  // app's other queries through in between (an interrupted load is simply done again: upserts are
  // idempotent and the version is recorded last). On Postgres, replicas may start together: one
  // transaction under an advisory lock, so one loads and the others find the version recorded.
  if (db.kind === 'pglite') return load(undefined);
  return db.transaction(async (tx) => {
    await loads.lock(tx);
    if (await loads.has(version, tx)) return result({ skipped: 'already loaded' });
    return load(tx);
  });
}
