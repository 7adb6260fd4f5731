import { MSG } from '@ct/contracts/messages';

/** The `auth/...` code of a Firebase error, or '' for anything else. */
export function authErrorCode(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
}

/**
 * The provider's own detail, without the SDK's "Firebase: ... (auth/code)." wrapping; null when the SDK
 * had nothing better than its generic "Error".
 */
export function providerDetail(err: unknown): string | null {
  const raw = err instanceof Error ? err.message : '';
  const detail = raw
    .replace(/^Firebase:\s*/, '')
    .replace(/\s*\(auth\/[^)]*\)\.?\s*$/, '')
    .trim();
  return detail && detail !== 'Error' ? detail : null;
}

/**
 * A refused e-mail and password, whatever the reason: the same words (and the same reset offer) for a
 * wrong password and for an e-mail with no account, so the login page never tells whether one exists.
 */
export const CREDENTIALS_REFUSED =
  'The email or password is incorrect. Check them and try again, or reset your password.';
const CREDENTIAL_CODES = [
  'auth/wrong-password',
  'auth/invalid-credential',
  'auth/invalid-login-credentials',
  'auth/user-not-found',
];

/** Codes after which the login page offers the Send Password Reset Email link. */
export const RESET_OFFER_CODES = new Set(CREDENTIAL_CODES);

/** A reset asked for on the login page: the same words whether or not an account has that e-mail. */
export const RESET_SENT_IF_ACCOUNT =
  'If an account exists for that e-mail, we sent a password reset link to it. Check your inbox.';
/** Reset failures that only say "no such account": answered like a success (see above). */
export const RESET_QUIET_CODES = new Set(['auth/user-not-found', 'auth/invalid-credential']);

/**
 * Readable text for the provider codes the spec lists. The SDK's own messages are terse code names, so
 * each listed code gets a sentence a student can act on.
 */
const READABLE: Record<string, string> = {
  ...Object.fromEntries(CREDENTIAL_CODES.map((c) => [c, CREDENTIALS_REFUSED])),
  'auth/email-already-in-use': 'An account already exists with this email address. Sign in instead.',
  'auth/too-many-requests': 'Too many attempts. Please wait a few minutes and try again.',
  'auth/user-disabled': 'This account has been disabled. Contact support if you think this is a mistake.',
  'auth/user-token-expired': 'Your session has expired. Please log in again.',
  'auth/requires-recent-login': 'For your security, please log in again and then retry.',
  'auth/expired-action-code': 'This link has expired. Please request a new one.',
  'auth/invalid-action-code': 'This link is invalid or has already been used. Please request a new one.',
  'auth/unauthorized-continue-uri': 'This website is not allowed to send that email. Contact support.',
  'auth/unauthorized-domain': 'Sign-in is not allowed from this website address. Contact support.',
  'auth/network-request-failed': 'Network error: check your connection and try again.',
  'auth/popup-blocked':
    'The sign-in window was blocked by your browser. Allow pop-ups for this site and try again.',
  'auth/popup-closed-by-user': 'The sign-in window was closed before signing in finished.',
  'auth/cancelled-popup-request': 'Another sign-in window is already open.',
  'auth/account-exists-with-different-credential':
    'An account already exists with this email address using a different sign-in method. Sign in with that method.',
  'auth/credential-already-in-use': 'This account is already linked to another user.',
  'auth/multi-factor-auth-required':
    'This account needs a second sign-in step, which this site does not support yet.',
  'auth/invalid-email': 'Please enter a valid email address.',
  'auth/missing-password': 'Please enter your password.',
  'auth/missing-email': 'Please enter your email address.',
  'auth/weak-password': 'The password is too weak: it must be at least 6 characters.',
};

/**
 * A readable message for a failed identity-provider call. Password-policy failures list the policy's
 * unmet requirements as the provider reports them.
 */
export function authErrorMessage(err: unknown, fallback: string = MSG.loginGenericError): string {
  const code = authErrorCode(err);
  const detail = providerDetail(err);
  if (code === 'auth/password-does-not-meet-requirements') {
    const list = detail?.match(/\[(.*)\]/)?.[1];
    return list
      ? `The password does not meet the requirements: ${list}.`
      : 'The password does not meet the requirements.';
  }
  if (code === 'auth/weak-password' && detail) return `The password is too weak: ${detail}.`;
  const known = READABLE[code];
  if (known) return known;
  // An unlisted provider code: its own text when it has one, otherwise the spec's generic message.
  if (code.startsWith('auth/') && detail) return detail;
  return fallback;
}
