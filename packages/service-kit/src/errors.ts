import { ERROR_STATUS, type ErrorCode } from '@ct/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { KIT_MSG } from './messages.ts';

/** An error meant for the caller: its message is sent as is, with its stable code. */
export class AppError extends Error {
  readonly statusCode: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    statusCode?: number,
  ) {
    super(message);
    this.name = 'AppError';
    this.statusCode = statusCode ?? ERROR_STATUS[code];
  }
}

/** "No route for GET /path" (KIT_MSG.noRoute). */
export const noRouteMessage = KIT_MSG.noRoute;

export const UNAVAILABLE_MESSAGE = KIT_MSG.unavailable;

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01', // admin_shutdown
  '57P02',
  '57P03', // cannot_connect_now
  '08000',
  '08003',
  '08006',
  '08001',
  '08004',
]);

/** True for errors that mean a dependency (database, Redis, another service) cannot be reached right now. */
export function isUnavailableError(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as { code?: unknown; message?: unknown; errors?: unknown[] };
  if (typeof e.code === 'string' && CONNECTION_CODES.has(e.code)) return true;
  const msg = typeof e.message === 'string' ? e.message : '';
  if (
    /Connection terminated|connection timeout|Connection is closed|timeout exceeded when trying to connect|Client has encountered a connection error|store is closed|queue is closed|Stream isn't writeable|Redis is not connected|MaxRetriesPerRequest/i.test(
      msg,
    )
  )
    return true;
  if (Array.isArray(e.errors)) return e.errors.some(isUnavailableError); // AggregateError from net
  return false;
}

/**
 * The SQLSTATE a service's database raises for a write of a deleted account (the deleted-student triggers,
 * e.g. user-data's migration 110): the write raced the account's deletion and lost.
 */
export const DELETED_ACCOUNT_SQLSTATE = 'CTDEL';

interface AjvErrorLike {
  instancePath?: string;
  message?: string;
  keyword?: string;
  params?: Record<string, unknown>;
  parentSchema?: { errorMessage?: string };
}

/** Turns a schema validation failure into one sentence a person can read. */
export function validationMessage(err: FastifyError): string {
  const list = (err.validation ?? []) as AjvErrorLike[];
  const first = list[0];
  if (!first) return err.message;
  if (first.parentSchema?.errorMessage) return first.parentSchema.errorMessage;
  const where = `${err.validationContext ?? 'request'}${first.instancePath ?? ''}`.replace(/\//g, '.');
  if (first.keyword === 'required') return KIT_MSG.missingField(where, String(first.params?.missingProperty));
  if (first.keyword === 'additionalProperties')
    return KIT_MSG.unknownField(where, String(first.params?.additionalProperty));
  return KIT_MSG.invalid(`${where} ${first.message ?? 'is invalid'}`);
}

/** The one error handler: `{ success: false, message, code }`; 5xx details are logged, never sent. */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply) => {
    if (err instanceof AppError) {
      if (err.statusCode >= 500) request.log.error({ err }, err.message);
      return reply.status(err.statusCode).send({ success: false, message: err.message, code: err.code });
    }
    const fe = err as FastifyError;
    if (fe.code === DELETED_ACCOUNT_SQLSTATE)
      return reply
        .status(401)
        .send({ success: false, message: KIT_MSG.accountGone, code: 'UNAUTHENTICATED' });
    if (fe.validation) {
      return reply
        .status(400)
        .send({ success: false, message: validationMessage(fe), code: 'VALIDATION_ERROR' });
    }
    if (isUnavailableError(err)) {
      request.log.error({ err }, 'dependency unavailable');
      return reply
        .status(503)
        .send({ success: false, message: UNAVAILABLE_MESSAGE, code: 'DEPENDENCY_UNAVAILABLE' });
    }
    const status = typeof fe.statusCode === 'number' ? fe.statusCode : 500;
    if (status === 413) {
      return reply
        .status(413)
        .send({ success: false, message: KIT_MSG.bodyTooLarge, code: 'PAYLOAD_TOO_LARGE' });
    }
    if (status === 429) {
      return reply.status(429).send({
        success: false,
        message: KIT_MSG.tooManyRequests,
        code: 'RATE_LIMITED',
      });
    }
    if (status >= 400 && status < 500) {
      const message =
        fe.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err instanceof SyntaxError
          ? KIT_MSG.bodyNotJson
          : fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
            ? KIT_MSG.bodyNotJsonType
            : fe.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
              ? KIT_MSG.bodyEmpty
              : KIT_MSG.invalid(fe.message);
      return reply.status(status).send({ success: false, message, code: 'VALIDATION_ERROR' });
    }
    request.log.error({ err }, 'unhandled error');
    return reply.status(500).send({
      success: false,
      message: KIT_MSG.internal,
      code: 'INTERNAL',
    });
  });
  app.setNotFoundHandler((request, reply) =>
    reply.status(404).send({
      success: false,
      message: noRouteMessage(request.method, request.url),
      code: 'NOT_FOUND',
    }),
  );
}
