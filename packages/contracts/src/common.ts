import Type, { type Static, type TSchema } from 'typebox';
import { LIMITS } from './limits.ts';
import { INPUT_MSG } from './messages.ts';

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

/**
 * No control character: C0 (tab, CR and LF included), DEL, C1, Unicode's line and paragraph separators,
 * and the bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069), which make text
 * read in another order than it is stored (issue 50.9). One-line text (a title, a name, a link's label)
 * that can reach a calendar file must match it: a lone CR or a \v there split or hid events in calendar
 * readers (issue 35).
 */
export const ONE_LINE_PATTERN =
  '^[^\\u0000-\\u001F\\u007F-\\u009F\\u2028\\u2029\\u202A-\\u202E\\u2066-\\u2069]*$';
/** Text of several lines: control characters refused except tab, line feed and carriage return. */
export const MULTI_LINE_PATTERN = '^[^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F]*$';

interface Lengths {
  minLength?: number;
  maxLength?: number;
}

/**
 * A string whose text must match `pattern`, refused with `message` otherwise (a check of its own, so a
 * too-long value still gets the usual length message); with `tooLong`, a value over `maxLength` is refused
 * with that sentence instead (a check of its own too, so a value that is no string is not told it is long).
 */
function CheckedString(opts: Lengths, pattern: string, message: string, tooLong?: string) {
  const { maxLength, ...rest } = opts;
  const checks = [{ pattern, errorMessage: message }];
  if (tooLong === undefined || maxLength === undefined) return Type.String({ ...opts, allOf: checks });
  return Type.String({ ...rest, allOf: [{ maxLength, errorMessage: tooLong }, ...checks] });
}

/** A string of one line: its own limits (`opts`) as usual, and control characters refused with `message`. */
export const OneLineString = (opts: Lengths, message: string, tooLong?: string) =>
  CheckedString(opts, ONE_LINE_PATTERN, message, tooLong);

/** A text of several lines (a note's content): newlines and tabs kept, other control characters refused. */
export const MultiLineString = (opts: Lengths, message: string, tooLong?: string) =>
  CheckedString(opts, MULTI_LINE_PATTERN, message, tooLong);

/** A college name as typed by a student: one line (it can become an event's title in a calendar file). */
export const CollegeName = OneLineString(
  { minLength: 1, maxLength: LIMITS.collegeNameMax },
  INPUT_MSG.collegeNameOneLine,
);

export { normaliseCollegeName, trigrams } from './constants.ts';
