import { fileURLToPath } from 'node:url';
import { defineService, type ServiceContext } from '@ct/service-kit';
import { CollegesConfig } from './config.ts';
import { makeDeps } from './deps.ts';
import { majorRoutes } from './majors/routes.ts';
import { collectionRoutes } from './routes/collection.ts';
import { collegeRoutes } from './routes/colleges.ts';
import { ingestionRoutes } from './routes/ingestion.ts';
import { reviewRoutes } from './routes/reviews.ts';
import { studentRoutes } from './routes/students.ts';
import type { CollegeDataReadiness } from './readiness.ts';
import { loadSnapshot } from './snapshot.ts';
import type { SuggestionIndex } from './suggestions.ts';

/** The colleges service: the college cache, search, suggestions, majors and ingestion requests. */
export default defineService({
  name: 'colleges',
  schema: 'colleges',
  migrationsDir: fileURLToPath(new URL('../migrations', import.meta.url)),
  config: CollegesConfig,
  // The one place its repositories, tracked jobs and outbox are built: routes and start-up share them.
  deps: makeDeps,
  routes: (deps) => [
    ...collegeRoutes(deps),
    ...ingestionRoutes(deps),
    ...reviewRoutes(deps),
    ...majorRoutes(deps),
    ...collectionRoutes(deps.colleges),
    ...studentRoutes(deps.traces),
  ],
  readyChecks: (deps) => [deps.readiness.readyCheck()],
  async start({ ctx, work, outbox, readiness, suggestions }) {
    const { config } = ctx;
    let closing = false;
    // Ready (readyz 200) only once the college data is in place and the suggestion index holds all of it.
    const prepare = async () => {
      if (config.LOAD_SNAPSHOT) await loadShippedData(ctx.log, ctx.db, readiness);
      readiness.indexing();
      await buildIndex(ctx.log, suggestions, () => closing);
      readiness.ready();
    };
    if (config.LOAD_SNAPSHOT) {
      // In the background: a first load takes seconds, longer than a start may (the embedded run's start
      // hooks are timed). Searches answer from what is stored meanwhile; a shutdown waits for the load.
      // It begins on the next turn of the event loop, after the remaining start hooks and the listen.
      readiness.loading();
      const loading = new Promise<void>((resolve) => setTimeout(resolve, 0)).then(prepare);
      ctx.onClose(() => loading);
      // Closers run last first: this one, before the wait above, stops the index's retries.
      ctx.onClose(() => {
        closing = true;
      });
    } else {
      // Nothing to load: the index of what is stored is built before the service listens (well under a
      // second for every Scorecard institution), so it is ready as soon as it answers.
      await prepare();
    }
    // One sweep gives every pending college and major request its job back (or ends it when its tries
    // are spent); the outbox publishes what an earlier process committed but did not publish.
    ctx.onClose(await work.jobs.start(config.INGESTION_SWEEP_MS));
    ctx.onClose(await outbox.start(config.OUTBOX_RELAY_MS));
  },
});

const fmt = (n: number) => n.toLocaleString('en-US');

/**
 * The first start (and the first after a new snapshot ships) loads every College Scorecard institution, so
 * search and suggestions work within seconds with no API key; later starts skip it with one query. A
 * failure is logged and the service keeps running (colleges are then gathered on demand).
 */
async function loadShippedData(
  log: ServiceContext['log'],
  db: ServiceContext['db'],
  readiness: CollegeDataReadiness,
) {
  try {
    const r = await loadSnapshot(db, { onProgress: (done, total) => readiness.loading(done, total) });
    if (!r.loaded) {
      log.debug({ version: r.version, skipped: r.skipped }, 'College Scorecard snapshot already in place');
      return;
    }
    log.info(
      { snapshot: r.version, colleges: r.colleges, withGrid: r.withGrid, ms: r.ms },
      `College data loaded: ${fmt(r.colleges)} colleges from the College Scorecard snapshot (${r.dataYear}), ` +
        `${fmt(r.withGrid)} with Common App requirements, in ${(r.ms / 1000).toFixed(1)} s`,
    );
  } catch (err) {
    log.error({ err }, 'the College Scorecard snapshot could not be loaded; colleges are gathered on demand');
  }
}

/** Builds the suggestion index from the stored colleges, trying again each second until it succeeds. */
async function buildIndex(log: ServiceContext['log'], suggestions: SuggestionIndex, closing: () => boolean) {
  for (;;) {
    try {
      await suggestions.fresh();
      return;
    } catch (err) {
      if (closing()) return;
      log.error({ err }, 'the suggestion index could not be built; trying again in a second');
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}
