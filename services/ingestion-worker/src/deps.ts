import { AiClient, RateLimiter, ScorecardClient } from '@ct/providers';
import type { ServiceClients, ServiceContext } from '@ct/service-kit';
import type { FastifyBaseLogger } from 'fastify';
import type { WorkerConfig } from './config.ts';
import { DEFAULT_DEADLINES_FILE, LocalDeadlines } from './local-deadlines.ts';

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
  /** The Common App requirements grid, or null when its file is not there */
  localDeadlines: LocalDeadlines | null;
}

/** Builds the providers from config, one rate limiter per provider for this process. */
export function createDeps(ctx: ServiceContext<unknown>, config: WorkerConfig): WorkerDeps {
  const scorecard = config.SCORECARD_API_KEY
    ? new ScorecardClient({
        baseUrl: config.SCORECARD_API_URL,
        apiKey: config.SCORECARD_API_KEY,
        timeoutMs: config.SCORECARD_TIMEOUT_MS,
        limiter: new RateLimiter(config.SCORECARD_REQUESTS_PER_MINUTE),
      })
    : null;
  const ai = config.OPENAI_API_KEY
    ? new AiClient({
        apiKey: config.OPENAI_API_KEY,
        baseUrl: config.OPENAI_BASE_URL,
        model: config.OPENAI_MODEL,
        timeoutMs: config.OPENAI_TIMEOUT_MS,
        limiter: new RateLimiter(config.OPENAI_REQUESTS_PER_MINUTE),
      })
    : null;
  if (scorecard) ctx.onClose(() => scorecard.close());
  if (ai) ctx.onClose(() => ai.close());
  let localDeadlines: LocalDeadlines | null = null;
  const file = config.LOCAL_DEADLINES_FILE ?? DEFAULT_DEADLINES_FILE;
  if (file !== 'none') {
    const { grid, problem } = LocalDeadlines.load(file);
    localDeadlines = grid;
    // Only the explicit setting is worth a warning: the default file exists in development only.
    if (problem && config.LOCAL_DEADLINES_FILE)
      ctx.log.warn({ file, problem }, 'local deadlines file not loaded');
  }
  // On its own, the context's clients reach the colleges service over HTTP (undici); embedded, in-process.
  return { config, clients: ctx.clients, log: ctx.log, scorecard, ai, localDeadlines };
}
