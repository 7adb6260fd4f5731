import {
  ESSAY_EXAMPLES_QUEUE,
  GatherPlatformPromptsJob,
  type GatherPlatformPromptsJobData,
} from '@ct/contracts';
import { comingCycles } from '@ct/providers';
import type { QueueBackend } from '@ct/queue';

/** "2026-27": the admission cycle under way. */
export function currentCycle(now: Date = new Date()): string {
  const y = Number(comingCycles(now).from.slice(0, 4));
  return `${y}-${String((y + 1) % 100).padStart(2, '0')}`;
}

/** Queues the gathering of the platforms' prompts for the cycle (one job per cycle, however many replicas). */
export async function enqueuePlatformPrompts(queue: QueueBackend, cycle = currentCycle()) {
  const data: GatherPlatformPromptsJobData = { cycle };
  return queue.add(ESSAY_EXAMPLES_QUEUE, GatherPlatformPromptsJob.name, data, {
    jobId: `${GatherPlatformPromptsJob.name}.${cycle}`,
    attempts: 3,
    backoffMs: 5000,
  });
}
