import rateLimit from '@fastify/rate-limit';
import fp from 'fastify-plugin';
import type { GatewayConfig } from '../config.ts';
import { GATEWAY_MSG } from '../messages.ts';

/**
 * RATE_LIMIT_MAX requests a minute per user (per address when signed out); internal calls are exempt. It
 * counts every request as it arrives, right after the token is read (onRequest, after the identity hook):
 * answers refused for bad input, a bad token or someone else's data (400, 401, 403) cost a request too,
 * so probing is as limited as using.
 */
export default fp<{ config: GatewayConfig }>(async (app, { config }) => {
  await app.register(rateLimit, {
    max: config.RATE_LIMIT_MAX,
    timeWindow: '1 minute',
    hook: 'onRequest',
    keyGenerator: (request) => request.auth?.uid ?? request.ip,
    allowList: (request) => request.internal,
    errorResponseBuilder: (_req, ctx) => ({
      statusCode: 429,
      success: false,
      message: GATEWAY_MSG.tooManyRequests(Math.ceil(ctx.ttl / 1000)),
      code: 'RATE_LIMITED',
    }),
  });
});
