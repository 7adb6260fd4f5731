import { adminRoutes } from './admin.ts';
import { authRoutes } from './auth.ts';
import { collectionRoutes } from './collection.ts';
import { collegeRoutes } from './colleges-api.ts';
import { essaysRoutes } from './essays.ts';
import type { RouteDef } from './route.ts';
import { userDataRoutes } from './user-data/index.ts';

/** The one route table: every API route, its owning service, who may call it and its schemas. */
export const ROUTES: readonly RouteDef[] = [
  ...authRoutes,
  ...collegeRoutes,
  ...collectionRoutes,
  ...userDataRoutes,
  ...essaysRoutes,
  ...adminRoutes,
];
