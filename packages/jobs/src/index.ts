export * from './tracked.ts';
export * from './outbox.ts';
