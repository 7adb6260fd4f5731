import auth from '@ct/auth';
import admin from '@ct/admin';
import colleges from '@ct/colleges';
import type { ServiceName } from '@ct/contracts';
import { SERVICE_NAMES } from '@ct/contracts';
import essays from '@ct/essays';
import ingestionWorker from '@ct/ingestion-worker';
import userData from '@ct/user-data';
import type { ServiceModule } from '@ct/service-kit';

/** Each service's module by name: the compiler refuses a service of SERVICES without one. */
const BY_NAME: Record<ServiceName, ServiceModule> = {
  auth,
  colleges,
  'user-data': userData,
  essays,
  admin,
  'ingestion-worker': ingestionWorker,
} as Record<ServiceName, ServiceModule>;

/** Every service module, registered in-process by the embedded run, in SERVICES order. */
export const MODULES: ServiceModule[] = SERVICE_NAMES.map((name) => BY_NAME[name]);
