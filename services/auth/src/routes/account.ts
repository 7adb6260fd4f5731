import {
  deleteAccount,
  internalDeletedAccounts,
  internalForgetCollegesStudent,
  internalForgetEssaysStudent,
  internalForgetUserDataStudent,
  MSG,
} from '@ct/contracts';
import { AppError, implement, requireRecentSignIn, type ServiceContext } from '@ct/service-kit';
import { AUTH_MSG } from '../messages.ts';
import { presentDeletedAccount } from '../presenters.ts';
import type { FirebaseAccounts } from '../repositories/accounts.ts';
import type { DeletedAccountRepository } from '../repositories/deleted-accounts.ts';
import type { RoleRepository } from '../repositories/roles.ts';

/** Words for a provider failure that a student can read (never the SDK's own "Firebase: Error (...)"). */
function plainReason(err: unknown): string {
  const code = (err as { code?: string }).code ?? '';
  if (code === 'app/invalid-credential' || code.startsWith('auth/insufficient-permission'))
    return AUTH_MSG.providerRefused;
  return AUTH_MSG.providerUnreachable;
}

/** The other services' "forget this account" routes, called after the student's own data is deleted. */
const FORGET_ROUTES = [internalForgetCollegesStudent, internalForgetEssaysStudent];

/** Deleting an account for good, and the record of deleted accounts the gateway checks. */
export function accountRoutes(
  ctx: ServiceContext,
  roles: RoleRepository,
  accounts: FirebaseAccounts,
  deleted: DeletedAccountRepository,
) {
  return [
    // The order is what makes it safe: first no new sessions, and the deletion recorded (every gateway
    // refuses tokens issued before it from then on); then the data, the traces in every service and the
    // role (a failure there leaves the account, so the student can sign in again and retry), the sign-in
    // account last (a failure there is reported as it is: the data is gone, the account still exists).
    implement(deleteAccount, async (request) => {
      const uid = requireRecentSignIn(request);
      try {
        await accounts.revokeSessions(uid);
      } catch (err) {
        request.log.error({ err }, 'account deletion: could not end the sessions');
        throw new AppError('DEPENDENCY_UNAVAILABLE', MSG.accountSessionsNotEnded);
      }
      await deleted.record(uid);
      let counts: { colleges: number; notes: number };
      try {
        const requestId = request.id;
        counts = await ctx.clients.call(internalForgetUserDataStudent, { body: { uid }, requestId });
        for (const route of FORGET_ROUTES) await ctx.clients.call(route, { body: { uid }, requestId });
      } catch (err) {
        request.log.error({ err }, 'account deletion: could not delete the student data');
        throw new AppError('DEPENDENCY_UNAVAILABLE', MSG.accountDataNotDeleted);
      }
      const staffRoleRemoved = await roles.revokeRole(uid);
      await roles.forgetGranter(uid);
      try {
        await accounts.delete(uid);
      } catch (err) {
        request.log.error({ err }, 'account deletion: data deleted, Firebase account not');
        throw new AppError('DEPENDENCY_UNAVAILABLE', MSG.accountNotDeleted(plainReason(err)));
      }
      request.log.info({ ...counts, staffRoleRemoved }, 'account deleted on request');
      return { success: true, message: MSG.accountDeleted, data: { ...counts, staffRoleRemoved } };
    }),

    implement(internalDeletedAccounts, async (request) => ({
      items: (await deleted.listAfter(request.query.after ?? 0)).map(presentDeletedAccount),
    })),
  ];
}
