import AjvModule from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance, FastifySchemaValidationError } from 'fastify';
import { AppError } from './errors.ts';
import { KIT_MSG } from './messages.ts';

// ajv and ajv-formats are CommonJS; under ESM interop the default export is the module object.
type Ajv = InstanceType<typeof AjvModule>;
const Ajv = ((AjvModule as unknown as { default?: typeof AjvModule }).default ??
  AjvModule) as typeof AjvModule;
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv,
) => Ajv;

function makeAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({
    coerceTypes: coerce ? 'array' : false,
    useDefaults: true,
    removeAdditional: false,
    allErrors: false,
    verbose: true,
    strict: false,
  });
  addFormats(ajv);
  ajv.addKeyword({ keyword: 'errorMessage', schemaType: 'string' });
  return ajv;
}

/**
 * Query strings and path params are text, so they are coerced to the schema's types; bodies are JSON and
 * must already have the right types (a number where a string belongs is refused, not converted).
 */
export function installValidation(app: FastifyInstance): void {
  const queryAjv = makeAjv(true);
  const bodyAjv = makeAjv(false);
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const validate = (httpPart === 'body' ? bodyAjv : queryAjv).compile(schema as object);
    return validate as unknown as ((data: unknown) => boolean) & {
      errors?: FastifySchemaValidationError[] | null;
    };
  });
  // Postgres cannot store NUL in text, and rejects lone surrogates in jsonb (a 500 otherwise); text
  // columns would silently turn them into U+FFFD. Refuse both before any schema or handler sees them.
  // Callback style: on every request, and an async hook costs a promise each time.
  app.addHook('preValidation', (request, _reply, done) => {
    if (
      hasUnstorableText(request.query) ||
      hasUnstorableText(request.params) ||
      hasUnstorableText(request.body)
    )
      return done(new AppError('VALIDATION_ERROR', UNSTORABLE_MESSAGE));
    done();
  });
}

export const UNSTORABLE_MESSAGE = KIT_MSG.unstorable;
// eslint-disable-next-line no-control-regex -- matching NUL is the point
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** True when any string (or key) in a parsed value holds NUL or a lone surrogate. Iterative: bodies can nest deep. */
export function hasUnstorableText(value: unknown): boolean {
  // Most requests bring nothing to look at (no query, no params, no body): no stack for them.
  if (value === undefined || value === null) return false;
  if (typeof value === 'string') return UNSTORABLE.test(value);
  if (typeof value !== 'object') return false;
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (UNSTORABLE.test(v)) return true;
    } else if (v && typeof v === 'object') {
      for (const k in v) {
        if (!Object.hasOwn(v, k)) continue;
        if (UNSTORABLE.test(k)) return true;
        stack.push((v as Record<string, unknown>)[k]);
      }
    }
  }
  return false;
}
