/**
 * What every service says the same way: refusals of access, malformed requests, an owner that does not
 * answer. Spec wording (MSG in packages/contracts) wherever the spec gives one.
 */
export const KIT_MSG = {
  unavailable: 'The service is temporarily unavailable. Please try again in a moment.',
  internal: 'Something went wrong on our side. Please try again.',
  notYours: 'You can only access your own data',
  adminsOnly: 'Admins only',
  /** A write for an account deleted (or being deleted) meanwhile: refused by its service's database. */
  accountGone: 'Your account no longer exists.',
  /** "No route for GET /path", with the path cut short: a made-up URL can be megabytes long. */
  noRoute: (method: string, url: string) => {
    const path = url.split('?')[0] ?? '';
    return `${NO_ROUTE} ${method} ${path.length > 120 ? `${path.slice(0, 120)}…` : path}`;
  },
  invalid: (detail: string) => `Invalid request: ${detail}`,
  missingField: (where: string, field: string) => `Invalid request: ${where} is missing "${field}"`,
  unknownField: (where: string, field: string) => `Invalid request: ${where} has an unknown field "${field}"`,
  badUrl: 'Invalid request: the URL is not valid',
  bodyNotJson: 'Invalid request: the body is not valid JSON',
  bodyNotJsonType: 'Invalid request: send the body as application/json',
  bodyEmpty: 'Invalid request: the body is empty',
  unstorable: 'Invalid request: text must not contain NUL characters or broken Unicode',
  bodyTooLarge: 'Request body is too large',
  tooManyRequests: 'Too many requests. Please slow down and try again.',
  notReady: (unreachable: string[], reasons: string[] = []) =>
    `Not ready: ${[...reasons, ...(unreachable.length ? [`${unreachable.join(', ')} unreachable`] : [])].join('; ')}`,
  metricsOff: (path: string) =>
    `Metrics are off: set METRICS_TOKEN and scrape ${path} with it as a bearer token`,
} as const;

const NO_ROUTE = 'No route for';

/** True for the 404 of a route nobody registered (an owner that is not there, not a missing record). */
export const isNoRouteMessage = (message: string) => message.startsWith(`${NO_ROUTE} `);
