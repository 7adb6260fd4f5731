import type { MessageDef, ServiceName } from '@ct/contracts';
import type { Consumer, JobHandler, QueueBackend } from './contract.ts';

/**
 * Durable fan-out of domain events over the queue: each subscribing service has its own queue
 * (`events.<service>`), so an event is delivered to every subscriber at least once, with retries.
 */
export class EventBus {
  constructor(
    private readonly queue: QueueBackend,
    private readonly subscribers: Record<string, readonly ServiceName[]>,
  ) {}

  /** Publishes one event; `eventId` makes re-publishing the same event a no-op for each subscriber. */
  async publish<T>(def: MessageDef, payload: T, eventId: string): Promise<void> {
    const targets = this.subscribers[def.name] ?? [];
    await Promise.all(
      targets.map((svc) =>
        this.queue.add(`events.${svc}`, def.name, payload, {
          jobId: `${def.name}.${eventId}`.replace(/:/g, '_'),
          attempts: 8,
          backoffMs: 1000,
        }),
      ),
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
