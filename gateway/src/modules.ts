import auth from '@ct/auth';
import admin from '@ct/admin';
import colleges from '@ct/colleges';
import essays from '@ct/essays';
import ingestionWorker from '@ct/ingestion-worker';
import userData from '@ct/user-data';
import type { ServiceModule } from '@ct/service-kit';

/** Every service module, registered in-process by the embedded run. */
export const MODULES: ServiceModule[] = [
  auth,
  colleges,
  userData,
  essays,
  admin,
  ingestionWorker,
] as ServiceModule[];
