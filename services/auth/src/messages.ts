/** Replies the spec does not word (spec wording, MSG, is used wherever the spec gives one). */
export const AUTH_MSG = { noStaffRole: 'No staff role found for user' } as const;
