import { internalForgetEssaysStudent } from '@ct/contracts';
import { implement, type Implementation } from '@ct/service-kit';
import type { EssaysDeps } from '../deps.ts';

/** Account deletion: the auth service asks every service to forget the account. */
export function studentRoutes({ traces }: EssaysDeps): Implementation[] {
  return [
    implement(internalForgetEssaysStudent, async (request) => ({
      rows: await traces.forget(request.body.uid),
    })),
  ];
}
