export * from './contract.ts';
export * from './memory.ts';
export * from './bullmq.ts';
export * from './events.ts';
import { BullQueue, type BullOptions } from './bullmq.ts';
import type { QueueBackend } from './contract.ts';
import { MemoryQueue } from './memory.ts';

/** BullMQ when a Redis URL is configured, the in-process queue otherwise. */
export function openQueue(opts: Partial<BullOptions> & { url?: string | undefined }): QueueBackend {
  return opts.url ? new BullQueue({ ...opts, url: opts.url }) : new MemoryQueue(undefined, opts.drainMs);
}
