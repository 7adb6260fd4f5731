import Type, { type Static } from 'typebox';
import { ApiError, Ok } from '../common.ts';
import { defineRoute } from '../route.ts';
import { UserQ } from './query.ts';

// ---- beyond the spec: a weekly e-mail of the deadlines ahead, when an operator sets up SMTP (issue 32) ----

/** A browser's time zone (`Intl.DateTimeFormat().resolvedOptions().timeZone`), such as America/Chicago. */
const Zone = Type.String({ minLength: 1, maxLength: 60, pattern: '^[A-Za-z0-9_+/-]+$' });

export const DigestSettings = Type.Object({
  /** False when this server sends no e-mail (no SMTP configured): the setting is not offered. */
  available: Type.Boolean(),
  enabled: Type.Boolean(),
  /** Where it goes: the account's verified address when it was turned on; null while it is off. */
  email: Type.Union([Type.String(), Type.Null()]),
  /** The zone whose Monday morning it is sent on. */
  zone: Type.Union([Type.String(), Type.Null()]),
});
export type DigestSettings = Static<typeof DigestSettings>;

export const getDigestSettings = defineRoute({
  method: 'GET',
  path: '/get-digest-settings',
  service: 'user-data',
  access: 'user',
  summary: 'Whether the weekly e-mail of deadlines is on, and where it goes',
  schema: { querystring: Type.Object(UserQ), response: { 200: Ok({ data: DigestSettings }) } },
});

export const updateDigestSettings = defineRoute({
  method: 'POST',
  path: '/update-digest-settings',
  service: 'user-data',
  access: 'user',
  summary:
    "Turn the weekly e-mail of deadlines on (to the account's verified address, on Monday mornings in the given zone) or off",
  schema: {
    body: Type.Object(
      { ...UserQ, enabled: Type.Boolean(), zone: Type.Optional(Zone) },
      { additionalProperties: false },
    ),
    response: { 200: Ok({ data: DigestSettings }), 400: ApiError, 409: ApiError },
  },
});

export const stopDigest = defineRoute({
  method: 'POST',
  path: '/stop-digest',
  service: 'user-data',
  access: 'public',
  summary: 'Turn the weekly e-mail off from the link at the foot of each one, without signing in',
  schema: {
    body: Type.Object(
      { token: Type.String({ minLength: 40, maxLength: 100, pattern: '^[A-Za-z0-9_-]+$' }) },
      { additionalProperties: false },
    ),
    response: { 200: Ok({}), 404: ApiError },
  },
});
