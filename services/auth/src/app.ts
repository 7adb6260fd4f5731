import { fileURLToPath } from 'node:url';
import { defineService } from '@ct/service-kit';
import { AuthConfig } from './config.ts';
import { FirebaseAccounts } from './repositories/accounts.ts';
import { DeletedAccountRepository } from './repositories/deleted-accounts.ts';
import { RoleRepository } from './repositories/roles.ts';
import { accountRoutes } from './routes/account.ts';
import { roleRoutes } from './routes/roles.ts';

/** The auth service: staff roles per uid, the is-admin lookup, and deleting an account for good. */
export default defineService({
  name: 'auth',
  schema: 'auth',
  migrationsDir: fileURLToPath(new URL('../migrations', import.meta.url)),
  config: AuthConfig,
  deps(ctx) {
    const accounts = new FirebaseAccounts({
      projectId: ctx.config.FIREBASE_PROJECT_ID,
      emulatorHost: ctx.config.FIREBASE_AUTH_EMULATOR_HOST ?? null,
    });
    ctx.onClose(() => accounts.close());
    return {
      ctx,
      roles: new RoleRepository(ctx.db),
      accounts,
      deleted: new DeletedAccountRepository(ctx.db),
    };
  },
  routes: ({ ctx, roles, accounts, deleted }) => [
    ...roleRoutes(roles),
    ...accountRoutes(ctx, roles, accounts, deleted),
  ],
});
