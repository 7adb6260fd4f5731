export * from './errors.ts';
export * from './rate-limit.ts';
export * from './json-schema.ts';
export * from './openai.ts';
export * from './scorecard-fields.ts';
export * from './scorecard.ts';
export * from './college-document.ts';
export * from './validate.ts';
