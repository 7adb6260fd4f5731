import Type, { type Static, type TSchema } from 'typebox';

/** Stable error codes and the HTTP status each maps to. The one error catalogue of the product. */
export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  STALE_ITEM: 409,
  LIMIT_REACHED: 409,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  DEPENDENCY_UNAVAILABLE: 503,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;

/** Every error the API sends has this shape. */
export const ApiError = Type.Object(
  {
    success: Type.Literal(false),
    message: Type.String(),
    code: Type.String(),
  },
  { description: 'Every error the API returns' },
);
export type ApiError = Static<typeof ApiError>;

/** A successful reply: `success: true`, a message, plus the named payload keys the spec gives. */
export function Ok<P extends Record<string, TSchema>>(payload: P) {
  return Type.Object({ success: Type.Literal(true), message: Type.String(), ...payload });
}

/** Calendar date as typed in a `<input type="date">`: YYYY-MM-DD, checked for a real day. */
export const IsoDate = Type.String({
  pattern: '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$',
  format: 'date',
  description: 'Calendar date, YYYY-MM-DD',
});

/** An instant, ISO 8601. */
export const IsoDateTime = Type.String({ format: 'date-time' });

/** A user id as issued by the identity provider. Optional wherever the spec sends one: the token decides. */
export const UserId = Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_-]+$' });

/**
 * Body of each service's internal "forget this student" route, called when an account is deleted: the
 * service removes every row that names the uid (tests/api/account-deletion.test.ts finds them all).
 */
export const ForgetStudent = Type.Object({ uid: UserId }, { additionalProperties: false });

/** A college name as typed by a student. */
export const CollegeName = Type.String({ minLength: 1, maxLength: 200 });

export { normaliseCollegeName, trigrams } from './constants.ts';
