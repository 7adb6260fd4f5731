import { EVENTS, type MessageDef } from '@ct/contracts';
import type { EventBus } from '@ct/queue';
import type { Db, Queryable } from '@ct/store';
import type { JobsLog } from './tracked.ts';

interface OutboxRow {
  id: number;
  event: string;
  event_id: string;
  payload: unknown;
}

/** Sent rows are kept this long (to look into), then purged by the relay. */
const KEEP_SENT_MS = 7 * 24 * 3600_000;

/**
 * A service's transactional outbox (a table `<schema>.outbox`, see colleges' 020_trust.sql and 031). An
 * event is written with `add` in the same transaction as the change it announces, so either both are
 * committed or neither is; the relay then publishes it and marks it sent, and keeps it until every
 * subscriber has applied it (`confirm`), publishing it again to one whose delivery the queue lost. A crash between the commit and the publish loses nothing: the row
 * waits for the next relay (after every commit, at start and on a timer). Delivery is at least once;
 * the event id makes a second publish of the same event a no-op for every subscriber.
 */
export class Outbox {
  private running: Promise<number> | null = null;
  private again = false;

  private readonly table: string;

  constructor(
    private readonly db: Db,
    private readonly bus: EventBus,
    private readonly log: JobsLog,
    schema: string,
  ) {
    this.table = `${schema}.outbox`;
  }

  /** Records an event in the caller's transaction. */
  async add<T>(tx: Queryable, def: MessageDef, payload: T, eventId: string): Promise<void> {
    await tx.query(`INSERT INTO ${this.table} (event, event_id, payload) VALUES ($1, $2, $3::jsonb)`, [
      def.name,
      eventId,
      JSON.stringify(payload),
    ]);
  }

  /**
   * Publishes every unsent event, oldest first, and marks each sent. Rows are locked while they are
   * published (SKIP LOCKED), so relays in several processes never publish one row at the same time.
   * Stops at the first failure (order kept); the row records why and waits for the next relay.
   * Returns how many were published.
   */
  async relay(batch = 100): Promise<number> {
    let published = 0;
    for (;;) {
      const { sent, stop } = await this.db.transaction(async (tx) => {
        const rows = await tx.query<OutboxRow>(
          `SELECT id, event, event_id, payload FROM ${this.table} WHERE sent_at IS NULL
           ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED`,
          [batch],
        );
        let n = 0;
        for (const row of rows.rows) {
          const def = EVENTS.find((e) => e.name === row.event);
          try {
            if (!def) throw new Error(`unknown event ${row.event}`);
            await this.bus.publish(def, row.payload, row.event_id);
          } catch (err) {
            await tx.query(
              `UPDATE ${this.table} SET attempts = attempts + 1, last_error = $2 WHERE id = $1`,
              [row.id, String((err as Error).message ?? err).slice(0, 500)],
            );
            this.log.warn({ err, event: row.event, eventId: row.event_id }, 'outbox: could not publish');
            return { sent: n, stop: true };
          }
          await tx.query(`UPDATE ${this.table} SET sent_at = now(), attempts = attempts + 1 WHERE id = $1`, [
            row.id,
          ]);
          n++;
        }
        return { sent: n, stop: rows.rows.length < batch };
      });
      published += sent;
      if (stop || sent === 0) break;
    }
    published += await this.confirm(batch);
    if (published) {
      await this.db.query(
        `DELETE FROM ${this.table}
         WHERE applied_at < now() - make_interval(secs => $1::double precision / 1000)`,
        [KEEP_SENT_MS],
      );
    }
    return published;
  }

  /**
   * Events published but not yet applied by every subscriber: marked applied once each subscriber's
   * handler has finished; published again to a subscriber whose delivery the queue lost (Redis wiped
   * after the publish), so an event leaves the outbox only once it took effect everywhere (at least
   * once: subscribers apply an event idempotently). Returns how many were published again.
   */
  async confirm(batch = 100): Promise<number> {
    const rows = await this.db.query<OutboxRow>(
      `SELECT id, event, event_id, payload FROM ${this.table}
       WHERE sent_at IS NOT NULL AND applied_at IS NULL ORDER BY id LIMIT $1`,
      [batch],
    );
    let again = 0;
    for (const row of rows.rows) {
      const def = EVENTS.find((e) => e.name === row.event);
      if (!def) continue;
      const deliveries = await this.bus.deliveries(def, row.event_id);
      const lost = deliveries.filter((d) => d.state === 'missing').map((d) => d.service);
      if (lost.length) {
        await this.bus.publish(def, row.payload, row.event_id, lost);
        this.log.warn(
          { event: row.event, eventId: row.event_id, lost },
          'outbox: delivery lost, published again',
        );
        again++;
      } else if (deliveries.every((d) => d.state === 'applied')) {
        await this.db.query(`UPDATE ${this.table} SET applied_at = now() WHERE id = $1`, [row.id]);
      }
    }
    return again;
  }

  /** Events published but not applied by every subscriber yet (health and tests). */
  async unapplied(): Promise<number> {
    const r = await this.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${this.table} WHERE applied_at IS NULL`,
    );
    return r.rows[0]?.n ?? 0;
  }

  /**
   * Relays now, in the background (after a commit). Calls while a relay runs make one more pass after
   * it, so an event committed meanwhile is not left for the timer.
   */
  kick(): Promise<number> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    const run = async (): Promise<number> => {
      let total = 0;
      do {
        this.again = false;
        total += await this.relay();
      } while (this.again);
      return total;
    };
    this.running = run()
      .catch((err: unknown) => {
        this.log.warn({ err }, 'outbox: relay failed (the timer tries again)');
        return 0;
      })
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }

  /**
   * Publishes what an earlier process committed but did not publish, then relays every `relayMs` (for
   * events a relay after a commit could not publish: the queue was down). Returns the stop.
   */
  async start(relayMs: number): Promise<() => void> {
    const relayed = await this.kick();
    if (relayed) this.log.info({ events: relayed }, 'outbox: events left from before were published');
    const timer = setInterval(() => void this.kick(), relayMs);
    timer.unref();
    return () => clearInterval(timer);
  }

  /** Events still waiting to be published (health and tests). */
  async pending(): Promise<number> {
    const r = await this.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${this.table} WHERE sent_at IS NULL`,
    );
    return r.rows[0]?.n ?? 0;
  }
}
