/**
 * How the service keeps house: how long it keeps what it needs and how much it reads at a time. The limits
 * a student meets are not here: they are `LIMITS` in @ct/contracts, the one source the schemas, the checks
 * and the messages read.
 */
export const USER_DATA_TUNING = {
  /** An export's claim on its student lapses when not renewed this long (its process died mid-export). */
  exportLeaseSeconds: 120,
  /** Versions an export reads at a time. */
  exportVersionsPerPage: 5,
  /** How often kept checklists and note reads older than their keep days are purged. */
  removedPurgeEveryMs: 60 * 60_000,
  /** How long the id of an applied write is kept (a phone offline longer resends nothing older). */
  writeIdKeepDays: 30,
} as const;
