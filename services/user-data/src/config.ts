import { withBase } from '@ct/service-kit';

/** The user-data service reads only the base variables. */
export const UserDataConfig = withBase({});
