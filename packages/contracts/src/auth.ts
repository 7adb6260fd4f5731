import Type, { type Static } from 'typebox';
import { ApiError, Ok, UserId } from './common.ts';
import { defineRoute } from './route.ts';

export const STAFF_ROLES = ['admin', 'staff'] as const;
export const StaffRole = Type.Union([Type.Literal('admin'), Type.Literal('staff')]);
export type StaffRole = Static<typeof StaffRole>;

export const StaffMember = Type.Object({
  userId: Type.String(),
  role: StaffRole,
  email: Type.Optional(Type.String()),
});
export type StaffMember = Static<typeof StaffMember>;

export const Page = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 })),
});

export const getStaffRoles = defineRoute({
  method: 'GET',
  path: '/get-staff-roles',
  service: 'auth',
  access: 'user',
  summary:
    "The signed-in user's staff role, null when they have none (is-admin is true only when this succeeds with `admin`)",
  schema: {
    querystring: Type.Object({ userId: Type.Optional(UserId) }),
    response: {
      200: Ok({ role: Type.Union([StaffRole, Type.Null()]), data: Type.Union([StaffRole, Type.Null()]) }),
    },
  },
});

/** Internal: role of any uid, for server-side admin checks. */
export const internalGetRole = defineRoute({
  method: 'GET',
  path: '/internal/staff-role/:uid',
  service: 'auth',
  access: 'internal',
  summary: 'Role of a uid, or null, and when it was granted',
  schema: {
    params: Type.Object({ uid: UserId }),
    response: {
      200: Type.Object({
        role: Type.Union([StaffRole, Type.Null()]),
        /** When the role was last granted (ms): a session started before it predates a revocation. */
        grantedAtMs: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
      }),
    },
  },
});

/** Internal: staff listing for the admin service. */
export const internalListStaff = defineRoute({
  method: 'GET',
  path: '/internal/staff',
  service: 'auth',
  access: 'internal',
  summary: 'Staff members, filtered by user id or role, paginated',
  schema: {
    querystring: Type.Object({
      userId: Type.Optional(Type.String({ maxLength: 128 })),
      role: Type.Optional(Type.String({ maxLength: 32 })),
      ...Page.properties,
    }),
    response: { 200: Type.Object({ total: Type.Integer(), items: Type.Array(StaffMember) }) },
  },
});

/**
 * The student deletes their account for good, decided on the server: app data (colleges, checklists,
 * notes, calendar link), any staff role, then the Firebase account itself, after ending its sessions.
 */
export const deleteAccount = defineRoute({
  method: 'POST',
  path: '/delete-account',
  service: 'auth',
  access: 'user',
  summary:
    'Delete the signed-in account for good: its data, its staff role and the sign-in account (needs a sign-in within the last 5 minutes)',
  schema: {
    body: Type.Object({ userId: Type.Optional(UserId) }, { additionalProperties: false }),
    response: {
      200: Ok({
        data: Type.Object({
          colleges: Type.Integer(),
          notes: Type.Integer(),
          staffRoleRemoved: Type.Boolean(),
        }),
      }),
      401: ApiError,
      503: ApiError,
    },
  },
});

/**
 * Internal: the record of deleted accounts, for the gateway's check on every request. A uid is kept only
 * as its SHA-256 (hex); `after` pages from the last sequence number the caller has.
 */
export const internalDeletedAccounts = defineRoute({
  method: 'GET',
  path: '/internal/deleted-accounts',
  service: 'auth',
  access: 'internal',
  summary: 'Accounts deleted after a sequence number: the SHA-256 of each uid and when it was deleted',
  schema: {
    querystring: Type.Object({
      after: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, default: 0 })),
    }),
    response: {
      200: Type.Object({
        items: Type.Array(
          Type.Object({ seq: Type.Integer(), uidSha256: Type.String(), deletedAtMs: Type.Integer() }),
        ),
      }),
    },
  },
});

export const authRoutes = [
  getStaffRoles,
  internalGetRole,
  internalListStaff,
  deleteAccount,
  internalDeletedAccounts,
];
