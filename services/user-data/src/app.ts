import { fileURLToPath } from 'node:url';
import { CollegeIngestedEvent, CollegeRemovedEvent } from '@ct/contracts';
import { defineService, registerRoutes } from '@ct/service-kit';
import { UserDataConfig } from './config.ts';
import { makeDeps } from './deps.ts';
import { onCollegeIngested, onCollegeRemoved } from './events.ts';
import { accountDataRoutes } from './routes/account.ts';
import { checklistRoutes } from './routes/checklist.ts';
import { collegeRoutes } from './routes/colleges.ts';
import { deadlineRoutes } from './routes/deadlines.ts';
import { internalRoutes } from './routes/internal.ts';
import { noteRoutes } from './routes/notes.ts';

/** The user-data service: a student's colleges, checklists, notes, deadlines and calendar link. */
export default defineService({
  name: 'user-data',
  schema: 'user_data',
  migrationsDir: fileURLToPath(new URL('../migrations', import.meta.url)),
  config: UserDataConfig,
  async plugin(app, ctx) {
    const deps = makeDeps(ctx);
    registerRoutes(app, ctx, [
      ...collegeRoutes(deps),
      ...checklistRoutes(deps),
      ...noteRoutes(deps),
      ...deadlineRoutes(deps),
      ...accountDataRoutes(deps),
      ...internalRoutes(deps),
    ]);
  },
  async start(ctx) {
    const deps = makeDeps(ctx);
    const consumer = ctx.bus.subscribe('user-data', {
      [CollegeIngestedEvent.name]: onCollegeIngested(deps),
      [CollegeRemovedEvent.name]: onCollegeRemoved(deps),
    });
    ctx.onClose(() => consumer.close());
  },
});
