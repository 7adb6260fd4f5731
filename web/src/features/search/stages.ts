import type { IngestionStage } from '@ct/contracts';

/**
 * What each stage the gathering job reports means to a student, shown under "Taking our time :D". The
 * job reports them in this order (`services/colleges/src/jobs/college.ts`): queued, government data,
 * college facts (only where an AI provider is configured), saving, then done or failed.
 */
export const STAGE_TEXT: Record<IngestionStage, string> = {
  queued: 'Waiting in line to gather this college...',
  'government-data': 'Step 1 of 3: reading government data (College Scorecard)...',
  'college-facts': 'Step 2 of 3: gathering deadlines, essay prompts, requirements and tips...',
  saving: 'Step 3 of 3: saving what we found...',
  done: 'Almost there...',
  failed: 'Gathering failed.',
};
