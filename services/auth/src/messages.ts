/** Replies the spec does not word (spec wording, MSG, is used wherever the spec gives one). */
export const AUTH_MSG = {
  noStaffRole: 'No staff role found for user',
  /** Why the sign-in account could not be deleted, in words a student can read (after MSG.accountNotDeleted). */
  providerRefused: 'the sign-in service refused the request',
  providerUnreachable: 'the sign-in service could not be reached',
} as const;
