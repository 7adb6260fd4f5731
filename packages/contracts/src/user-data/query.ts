import Type from 'typebox';
import { CollegeName, UserId } from '../common.ts';

/** The `userId` every student route accepts (optional: the verified token decides; a different one is a 403). */
export const UserQ = { userId: Type.Optional(UserId) };
/** A student route about one college on their list. */
export const UserCollegeQ = Type.Object({ ...UserQ, collegeName: CollegeName });
