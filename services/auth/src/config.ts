import { withBase } from '@ct/service-kit';

/** The auth service reads only the base variables. */
export const AuthConfig = withBase({});
