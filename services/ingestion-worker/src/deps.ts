import { AiClient, ScorecardClient, type JobProviders } from '@ct/providers';
import type { ServiceContext } from '@ct/service-kit';
import type { WorkerConfig } from './config.ts';
import { callLimiter } from './call-limiter.ts';
import { loadLocalDeadlines } from './local-deadlines.ts';
import { timed } from './metrics.ts';

/**
 * Builds the outside providers from the worker's settings, once, for every service's job module: each
 * call is timed in the worker's metrics. The Scorecard's calls per minute are counted as calls over every
 * worker (`callLimiter`); the AI's, one a job at most, by the queue's limiter (`providerLimiter`).
 */
export async function createProviders(ctx: ServiceContext<WorkerConfig>): Promise<JobProviders> {
  const { config } = ctx;
  const calls = config.SCORECARD_API_KEY
    ? callLimiter({
        provider: 'scorecard',
        perMinute: config.SCORECARD_REQUESTS_PER_MINUTE,
        redisUrl: config.REDIS_URL,
        prefix: config.QUEUE_PREFIX,
      })
    : null;
  const scorecard = config.SCORECARD_API_KEY
    ? new ScorecardClient({
        baseUrl: config.SCORECARD_API_URL,
        apiKey: config.SCORECARD_API_KEY,
        timeoutMs: config.SCORECARD_TIMEOUT_MS,
        beforeCall: () => calls!.take(),
      })
    : null;
  if (scorecard) ctx.onClose(() => scorecard.close());
  if (calls) ctx.onClose(() => calls.close());
  const openAi = (budget?: () => Promise<void>) => {
    if (!config.OPENAI_API_KEY) return null;
    const client = new AiClient({
      apiKey: config.OPENAI_API_KEY,
      baseUrl: config.OPENAI_BASE_URL,
      model: config.OPENAI_MODEL,
      timeoutMs: config.OPENAI_TIMEOUT_MS,
      budget,
    });
    ctx.onClose(() => client.close());
    return timed('openai', client);
  };
  const { grid: localDeadlines, problem } = await loadLocalDeadlines(config.LOCAL_DEADLINES_FILE);
  if (problem) ctx.log.warn({ file: config.LOCAL_DEADLINES_FILE, problem }, 'Common App grid not loaded');
  return { scorecard: scorecard && timed('scorecard', scorecard), openAi, localDeadlines };
}
