import { fileURLToPath } from 'node:url';
import {
  deleteAccount,
  deleteMyData,
  getStaffRoles,
  internalGetRole,
  internalListStaff,
  MSG,
} from '@ct/contracts';
import {
  AppError,
  defineService,
  implement,
  registerRoutes,
  requireRecentSignIn,
  requireUser,
  withBase,
} from '@ct/service-kit';
import { FirebaseAccounts } from './accounts.ts';
import { RoleRepository } from './repository.ts';

const AUTH_MSG = { noStaffRole: 'No staff role found for user' } as const;

/** Words for a provider failure that a student can read (never the SDK's own "Firebase: Error (...)"). */
function plainReason(err: unknown): string {
  const code = (err as { code?: string }).code ?? '';
  if (code === 'app/invalid-credential' || code.startsWith('auth/insufficient-permission'))
    return 'the sign-in service refused the request';
  return 'the sign-in service could not be reached';
}

/** The auth service: staff roles per uid, the is-admin lookup, and deleting an account for good. */
export default defineService({
  name: 'auth',
  schema: 'auth',
  migrationsDir: fileURLToPath(new URL('../migrations', import.meta.url)),
  config: withBase({}),
  async plugin(app, ctx) {
    const roles = new RoleRepository(ctx.db);
    const accounts = new FirebaseAccounts({
      projectId: ctx.config.FIREBASE_PROJECT_ID,
      emulatorHost: ctx.config.FIREBASE_AUTH_EMULATOR_HOST ?? null,
    });
    ctx.onClose(() => accounts.close());

    registerRoutes(app, ctx, [
      implement(getStaffRoles, async (request) => {
        const uid = requireUser(request);
        const role = await roles.findRole(uid);
        // Most users have no role: that is an answer, not a failure (no 404 on every student's page load).
        if (!role) return { success: true, message: AUTH_MSG.noStaffRole, role: null, data: null };
        return { success: true, message: MSG.staffRoleFound, role, data: role };
      }),
      implement(internalGetRole, async (request) => ({ role: await roles.findRole(request.params.uid) })),
      implement(internalListStaff, async (request) => {
        const q = request.query;
        return roles.listStaff({
          userId: q.userId,
          role: q.role,
          limit: q.limit ?? 50,
          offset: q.offset ?? 0,
        });
      }),

      // The order is what makes it safe: first no new sessions, then the data and the role (a failure
      // there leaves the account, so the student can sign in and retry), the sign-in account last (a
      // failure there is reported as it is: the data is gone, the account still exists).
      implement(deleteAccount, async (request) => {
        const uid = requireRecentSignIn(request);
        try {
          await accounts.revokeSessions(uid);
        } catch (err) {
          request.log.error({ err }, 'account deletion: could not end the sessions');
          throw new AppError('DEPENDENCY_UNAVAILABLE', MSG.accountSessionsNotEnded);
        }
        let counts: { colleges: number; notes: number };
        try {
          counts = (await ctx.clients.call(deleteMyData, { auth: request.auth, body: {} })).data;
        } catch (err) {
          request.log.error({ err }, 'account deletion: could not delete the student data');
          throw new AppError('DEPENDENCY_UNAVAILABLE', MSG.accountDataNotDeleted);
        }
        const staffRoleRemoved = await roles.revokeRole(uid);
        try {
          await accounts.delete(uid);
        } catch (err) {
          request.log.error({ err }, 'account deletion: data deleted, Firebase account not');
          throw new AppError('DEPENDENCY_UNAVAILABLE', MSG.accountNotDeleted(plainReason(err)));
        }
        request.log.info({ ...counts, staffRoleRemoved }, 'account deleted on request');
        return { success: true, message: MSG.accountDeleted, data: { ...counts, staffRoleRemoved } };
      }),
    ]);
  },
});
