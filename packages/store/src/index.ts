export * from './db.ts';
export * from './migrate.ts';
