import { internalForgetCollegesStudent } from '@ct/contracts';
import { implement, type Implementation } from '@ct/service-kit';
import type { StudentTraceRepository } from '../repositories/students.ts';

/** Account deletion: the auth service asks every service to forget the student. */
export function studentRoutes(traces: StudentTraceRepository): Implementation[] {
  return [
    implement(internalForgetCollegesStudent, async (request) => ({
      rows: await traces.forget(request.body.uid),
    })),
  ];
}
