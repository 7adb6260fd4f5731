import { withBase } from '@ct/service-kit';

/** The admin service reads only the base variables. */
export const AdminConfig = withBase({});
