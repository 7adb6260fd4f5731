import { defineService } from '@ct/service-kit';
import { AdminConfig } from './config.ts';
import { collegeRoutes } from './routes/colleges.ts';
import { ingestionRoutes } from './routes/ingestion.ts';
import { listingRoutes } from './routes/listings.ts';
import { metricsRoutes } from './routes/metrics.ts';

/**
 * The admin service: metrics and listings for admins, retrying a failed ingestion, and the review,
 * merge and delete of colleges.
 * It owns no tables; every figure comes from the owning service's internal API, so it can never
 * disagree with (or quietly bypass) the owner. Access `admin` on each route makes the server refuse
 * anyone else before a handler runs.
 */
export default defineService({
  name: 'admin',
  schema: null,
  migrationsDir: null,
  config: AdminConfig,
  // Nothing of its own to build: every route asks the owning services through the context's clients.
  routes: ({ ctx }) => [
    ...metricsRoutes(ctx),
    ...listingRoutes(ctx),
    ...ingestionRoutes(ctx),
    ...collegeRoutes(ctx),
  ],
});
