import { fileURLToPath } from 'node:url';
import { INGESTION_QUEUE } from '@ct/contracts';
import { defineService, registerRoutes, type ServiceContext } from '@ct/service-kit';
import { CollegesConfig } from './config.ts';
import { Ingestion, INTERRUPTED_REASON } from './ingestion.ts';
import { majorRoutes } from './majors/routes.ts';
import { collegeRoutes } from './routes/colleges.ts';
import { ingestionRoutes } from './routes/ingestion.ts';
import { reviewRoutes } from './routes/reviews.ts';
import { loadSnapshot } from './snapshot.ts';

/** The colleges service: the college cache, search, suggestions, majors and ingestion requests. */
export default defineService({
  name: 'colleges',
  schema: 'colleges',
  migrationsDir: fileURLToPath(new URL('../migrations', import.meta.url)),
  config: CollegesConfig,
  async plugin(app, ctx) {
    const ingestion = new Ingestion(ctx);
    registerRoutes(app, ctx, [
      ...collegeRoutes(ctx, ingestion),
      ...ingestionRoutes(ctx, ingestion),
      ...reviewRoutes(ctx, ingestion),
      ...majorRoutes(ctx),
    ]);
  },
  async start(ctx) {
    const { config } = ctx;
    if (config.LOAD_SNAPSHOT) {
      // In the background: a first load takes seconds, longer than a start may (the embedded run's start
      // hooks are timed). Searches answer from what is stored meanwhile; a shutdown waits for the load.
      // It begins on the next turn of the event loop, after the remaining start hooks and the listen.
      const loading = new Promise<void>((resolve) => setTimeout(resolve, 0)).then(() =>
        loadShippedData(ctx.log, ctx.db),
      );
      ctx.onClose(() => loading);
    }
    const ingestion = new Ingestion(ctx);
    // A job the queue gave up on without the worker saying why (it kept dying mid-job) still ends its
    // request, so no student waits forever behind the overlay.
    const off = await ctx.queue.on(INGESTION_QUEUE, (e) => {
      if (e.type !== 'failed' || !e.final) return;
      const key = Ingestion.keyOfJob(e.jobId);
      if (!key) return;
      void ingestion.requests.fail(key, INTERRUPTED_REASON, true).catch((err: unknown) => {
        ctx.log.warn({ err, key }, 'could not record a failed ingestion job');
      });
    });
    ctx.onClose(off);
    const resume = async () => {
      try {
        const n = await ingestion.resumePending();
        if (n) ctx.log.info({ requests: n }, 'ingestion requests still pending were enqueued again');
      } catch (err) {
        ctx.log.warn({ err }, 'could not enqueue pending ingestion requests (will try again)');
      }
    };
    await resume();
    if (config.INGESTION_SWEEP_MS > 0) {
      const timer = setInterval(() => void resume(), config.INGESTION_SWEEP_MS);
      timer.unref();
      ctx.onClose(() => clearInterval(timer));
    }
    // Events committed but not yet published (the process stopped between the two) go out now, and any
    // the relay after a commit could not publish (the queue was down) on the timer.
    const relayed = await ingestion.outbox.kick();
    if (relayed) ctx.log.info({ events: relayed }, 'outbox: events left from before were published');
    const relayTimer = setInterval(() => void ingestion.outbox.kick(), config.OUTBOX_RELAY_MS);
    relayTimer.unref();
    ctx.onClose(() => clearInterval(relayTimer));
  },
});

const fmt = (n: number) => n.toLocaleString('en-US');

/**
 * The first start (and the first after a new snapshot ships) loads every College Scorecard institution, so
 * search and suggestions work within seconds with no API key; later starts skip it with one query. A
 * failure is logged and the service keeps running (colleges are then gathered on demand).
 */
async function loadShippedData(log: ServiceContext['log'], db: ServiceContext['db']) {
  try {
    const r = await loadSnapshot(db);
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
