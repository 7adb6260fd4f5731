import type { MessageDef, ServiceName } from '@ct/contracts';
import type { Consumer, JobHandler, QueueBackend } from './contract.ts';

const deliveryId = (def: MessageDef, eventId: string) => `${def.name}.${eventId}`.replace(/:/g, '_');

/**
 * Durable fan-out of domain events over the queue: each subscribing service has its own queue
 * (`events.<service>`), so an event is delivered to every subscriber at least once, with retries.
 */
export class EventBus {
  constructor(
    private readonly queue: QueueBackend,
    private readonly subscribers: Record<string, readonly ServiceName[]>,
  ) {}

  /**
   * Publishes one event (to `only` of its subscribers when given); `eventId` makes re-publishing the same
   * event a no-op for each subscriber while its delivery is unfinished.
   */
  async publish<T>(
    def: MessageDef,
    payload: T,
    eventId: string,
    only?: readonly ServiceName[],
  ): Promise<void> {
    const targets = (this.subscribers[def.name] ?? []).filter((s) => !only || only.includes(s));
    await Promise.all(
      targets.map((svc) =>
        this.queue.add(`events.${svc}`, def.name, payload, {
          jobId: deliveryId(def, eventId),
          attempts: 8,
          backoffMs: 1000,
        }),
      ),
    );
  }

  /**
   * Where one event's delivery to each subscriber stands: `applied` (its handler finished), `pending`
   * (waiting, running or retrying), `failed` (tries spent) or `missing` (the queue lost it, or never had it).
   */
  async deliveries(
    def: MessageDef,
    eventId: string,
  ): Promise<Array<{ service: ServiceName; state: 'applied' | 'pending' | 'failed' | 'missing' }>> {
    return Promise.all(
      (this.subscribers[def.name] ?? []).map(async (service) => {
        const job = await this.queue.getJob(`events.${service}`, deliveryId(def, eventId));
        const state =
          !job || job.state === 'lost'
            ? ('missing' as const)
            : job.state === 'completed'
              ? ('applied' as const)
              : job.state === 'failed'
                ? ('failed' as const)
                : ('pending' as const);
        return { service, state };
      }),
    );
  }

  /** Consumes the events addressed to one service. Every event name must have exactly one handler. */
  subscribe(service: ServiceName, handlers: Record<string, JobHandler>, concurrency = 1): Consumer {
    const expected = Object.entries(this.subscribers)
      .filter(([, svcs]) => svcs.includes(service))
      .map(([name]) => name);
    const missing = expected.filter((n) => !handlers[n]);
    if (missing.length) throw new Error(`${service} subscribes to ${missing.join(', ')} without a handler`);
    return this.queue.process(
      `events.${service}`,
      async (job) => {
        const h = handlers[job.name];
        if (!h) throw new Error(`no handler for event ${job.name}`);
        return h(job);
      },
      { concurrency },
    );
  }
}
