import type { SessionEnd } from './session';

/** What the login page tells a student whose session ended without them signing out here. */
export const SESSION_ENDED_NOTICE: Record<Exclude<SessionEnd, 'signed-out'>, string> = {
  expired:
    'You were signed out because your password was changed or your sessions were ended on another device. Please log in again.',
  disabled: 'This account has been disabled. Contact support if you think this is a mistake.',
  gone: 'You were signed out. Please log in again.',
};

/** Shown on /login when a signed-in page sent the visitor there. */
export const LOGIN_TO_CONTINUE = 'Please log in to continue.';

export const VERIFICATION_RESENT = (email: string) =>
  `We sent a new verification e-mail to ${email}. Open the link in it, then log in.`;
