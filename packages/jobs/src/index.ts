export * from './tracked.ts';
export * from './outbox.ts';
export * from './handlers.ts';
