import type { ServiceName } from '@ct/contracts';

/** What the admin service says to admins (spec wording, MSG, where the spec gives one). */
export const ADMIN_MSG = {
  approved: (name: string) => `"${name}" is now shared with every student.`,
  merged: (name: string, into: string) => `"${name}" was merged into "${into}".`,
  deleted: (name: string) => `"${name}" was deleted.`,
  retryQueued: (name: string) => `Retry queued for ${name}.`,
  /** `list` names the owners that did not answer ("colleges service", "staff roles and colleges services"). */
  ownersUnavailable: (list: string, several: boolean) =>
    `The ${list} ${several ? 'are' : 'is'} not answering right now, so this data cannot be shown. Please try again in a moment.`,
} as const;

/** How the admin page names each owning service when it cannot answer. */
export const OWNER_NAMES: Partial<Record<ServiceName, string>> = {
  auth: 'staff roles',
  colleges: 'colleges',
  'user-data': 'student data',
};
