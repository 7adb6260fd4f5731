import { internalTakeAiCall } from '@ct/contracts';
import { AiClient, ProviderError, ScorecardClient } from '@ct/providers';
import type { ServiceClients, ServiceContext } from '@ct/service-kit';
import type { FastifyBaseLogger } from 'fastify';
import type { WorkerConfig } from './config.ts';
import { loadLocalDeadlines, type LocalDeadlines } from './local-deadlines.ts';

/** What every job handler is given: the colleges API, the providers (null when not configured), logs. */
export interface WorkerDeps {
  config: WorkerConfig;
  /** Typed calls to other services' internal routes; the worker touches no tables itself. */
  clients: ServiceClients;
  log: FastifyBaseLogger;
  /** The College Scorecard API, or null without SCORECARD_API_KEY */
  scorecard: ScorecardClient | null;
  /** The OpenAI Responses API (web search, strict JSON), or null without OPENAI_API_KEY */
  ai: AiClient | null;
  /** The same API for essays work (example essays, platform prompts): not counted against the hourly limit */
  writer: AiClient | null;
  /** The Common App requirements grid (shipped, or the operator's), or null when turned off */
  localDeadlines: LocalDeadlines | null;
}

/** Builds the providers from config (their rate limit is the queue's: see `providerLimiter`). */
export async function createDeps(ctx: ServiceContext<WorkerConfig>): Promise<WorkerDeps> {
  const { config } = ctx;
  // On its own, the context's clients reach the colleges service over HTTP (undici); embedded, in-process.
  const clients = ctx.clients;
  const scorecard = config.SCORECARD_API_KEY
    ? new ScorecardClient({
        baseUrl: config.SCORECARD_API_URL,
        apiKey: config.SCORECARD_API_KEY,
        timeoutMs: config.SCORECARD_TIMEOUT_MS,
      })
    : null;
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
    return client;
  };
  const ai = openAi(() => takeAiCall(clients));
  const writer = openAi();
  if (scorecard) ctx.onClose(() => scorecard.close());
  const { grid: localDeadlines, problem } = await loadLocalDeadlines(config.LOCAL_DEADLINES_FILE);
  if (problem) ctx.log.warn({ file: config.LOCAL_DEADLINES_FILE, problem }, 'Common App grid not loaded');
  return { config, clients, log: ctx.log, scorecard, ai, writer, localDeadlines };
}

/**
 * Counts one AI call against the hourly limit every worker shares (kept by the colleges service in its
 * database); refuses the call when the limit is spent.
 */
async function takeAiCall(clients: ServiceClients): Promise<void> {
  const r = await clients.call(internalTakeAiCall, { body: { purpose: 'ingestion' } });
  if (!r.allowed) throw new ProviderError('openai', 'paused', r.message);
}
