import { adminMetrics, internalCollegeStats, internalListStaff, internalUserDataStats } from '@ct/contracts';
import { implement, type Implementation, type ServiceContext } from '@ct/service-kit';
import { askOwner, fromOwners } from './owners.ts';

/** Dashboard Metrics: counts of colleges, staff and profiles, each from the service that owns it. */
export function metricsRoutes(ctx: ServiceContext): Implementation[] {
  return [
    implement(adminMetrics, async (request) => {
      const requestId = request.id;
      const [colleges, staff, userData] = await fromOwners([
        askOwner(ctx, internalCollegeStats, { requestId }),
        // Only the total is needed: one row keeps the call cheap.
        askOwner(ctx, internalListStaff, { query: { limit: 1, offset: 0 }, requestId }),
        askOwner(ctx, internalUserDataStats, { requestId }),
      ] as const);
      return {
        success: true,
        metrics: { colleges: colleges.colleges, staff: staff.total, profiles: userData.profiles },
      };
    }),
  ];
}
