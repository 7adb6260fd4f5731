import type { Static, TProperties, TSchema } from 'typebox';
import { Compile, type Validator } from 'typebox/compile';

const cache = new WeakMap<TSchema, Validator>();

/**
 * A compiled validator for a schema, made once per schema object: checking gathered documents is on the
 * ingestion worker's hot path, where interpreting the schema on every check costs more than the check.
 */
export function validatorOf<S extends TSchema>(schema: S): Validator<TProperties, S> {
  let v = cache.get(schema);
  if (!v) {
    v = Compile(schema) as unknown as Validator;
    cache.set(schema, v);
  }
  return v as unknown as Validator<TProperties, S>;
}

/** True when `value` matches `schema` (compiled once). */
export function matches<S extends TSchema>(schema: S, value: unknown): value is Static<S> {
  return validatorOf(schema).Check(value);
}

/** The first problem of a value against a schema, as "path message", for a readable error. */
export function firstProblem(schema: TSchema, value: unknown): string {
  const first = [...validatorOf(schema).Errors(value)][0];
  return first ? `${first.instancePath || '/'} ${first.message}`.trim() : '';
}
