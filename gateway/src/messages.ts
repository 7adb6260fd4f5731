/**
 * What the gateway says at the edge (sessions, rate limit, the queue dashboard), where the spec gives no
 * wording; spec wording (MSG in packages/contracts) and KIT_MSG (packages/service-kit) otherwise.
 */
export const GATEWAY_MSG = {
  badAuthHeader: 'Invalid authorization header. Please sign in again.',
  sessionExpired: 'Your session has expired. Please sign in again.',
  sessionRevoked: 'Your session was revoked. Please sign in again.',
  accountDisabled: 'Your account has been disabled.',
  accountGone: 'Your account no longer exists.',
  badToken: 'Invalid ID token. Please sign in again.',
  signedIn: 'Signed in',
  tooManyRequests: (seconds: number) => `Too many requests. Please try again in ${seconds} s.`,
  opsSessionStarted: 'Queue dashboard session started',
  opsSessionEnded: 'Queue dashboard session ended',
  opsNotAdmin: 'This account is not an admin. The queue dashboard is for the operators of the service.',
  opsSignInFirst:
    'Sign in as an admin first: open the app, sign in, go to the Admin page and use its Queue dashboard button.',
} as const;
