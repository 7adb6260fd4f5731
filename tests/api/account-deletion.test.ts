// "Delete my account", decided on the server: a recent sign-in is required, then the sessions end, the
// student's data and staff role are deleted and the Firebase account last. When Firebase refuses the last
// step, the student is told plainly what was and was not deleted, and a retry finishes the job.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { MSG } from '@ct/contracts';
import {
  accountExists,
  adminUpdate,
  createVerifiedUser,
  emulatorHost,
  gatewaySuite,
  signIn,
  startTestGateway,
  tokenClaims,
  unsignedToken,
  type TestGateway,
  type TestUser,
} from '@ct/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** Rows the student still has: colleges, notes and a staff role. */
async function leftOf(gw: TestGateway, uid: string): Promise<number> {
  const r = await gw.db.query<{ n: number }>(
    `SELECT (SELECT count(*)::int FROM user_data.note WHERE user_id = $1)
          + (SELECT count(*)::int FROM user_data.user_college WHERE user_id = $1)
          + (SELECT count(*)::int FROM auth.staff_roles WHERE uid = $1) AS n`,
    [uid],
  );
  return r.rows[0]!.n;
}

async function studentWithData(gw: TestGateway, name: string): Promise<TestUser> {
  const user = await createVerifiedUser({ name });
  const note = { note: { title: `${name}'s plan`, content: 'Essays first' } };
  expect((await gw.api('POST', '/api/add-note', { token: user.idToken, body: note })).status).toBe(200);
  await gw.db.query(
    `INSERT INTO auth.staff_roles (uid, role, email, granted_by) VALUES ($1, 'staff', $2, 'test')`,
    [user.uid, user.email],
  );
  expect(await leftOf(gw, user.uid)).toBe(2);
  return user;
}

/**
 * Which columns name a student (the rule, ADR 0070): a text column, in any service's schema, called `uid`
 * or `user_id`, or ending in `_uid`, `_user_id` or `_by` (who asked, granted, added, read). Each found
 * column needs a seed below, so a new one fails this test until delete-account forgets it.
 */
async function uidColumns(gw: TestGateway): Promise<string[]> {
  const r = await gw.db.query<{ col: string }>(
    `SELECT c.table_schema || '.' || c.table_name || '.' || c.column_name AS col
     FROM information_schema.columns c
     JOIN information_schema.tables t USING (table_schema, table_name)
     WHERE t.table_type = 'BASE TABLE'
       AND c.table_schema NOT IN ('pg_catalog', 'information_schema') AND c.table_schema NOT LIKE 'pg\\_%'
       AND c.data_type IN ('text', 'character varying')
       AND c.column_name ~* '^(uid|user_?id)$|_(uid|user_id|by)$'`,
  );
  return r.rows.map((x) => x.col);
}

/** A row naming the uid ($1) in each column the rule finds (notes and the calendar feed come from the API). */
const UID_COLUMN_SEEDS: Record<string, string> = {
  'auth.staff_roles.uid': `INSERT INTO auth.staff_roles (uid, role, granted_by) VALUES ($1, 'staff', 'test')`,
  'auth.staff_roles.granted_by': `INSERT INTO auth.staff_roles (uid, role, granted_by) VALUES ('someone-' || $1, 'staff', $1)`,
  'user_data.note.user_id': `SELECT $1`,
  'user_data.calendar_feed.user_id': `SELECT $1`,
  'user_data.student.user_id': `SELECT $1`,
  'user_data.user_college.user_id': `INSERT INTO user_data.user_college (user_id, college_key, college_name, checklist)
     VALUES ($1, 'test college', 'Test College', '{}')`,
  'user_data.removed_college.user_id': `INSERT INTO user_data.removed_college (user_id, college_key, college_name, checklist, added_at)
     VALUES ($1, 'gone college', 'Gone College', '{}', now())`,
  'user_data.student_profile.user_id': `INSERT INTO user_data.student_profile (user_id, home_state) VALUES ($1, 'CA')`,
  'user_data.share_link.user_id': `INSERT INTO user_data.share_link (user_id, token_hash, label, scope, display_name, expires_at)
     VALUES ($1, md5($1), 'Mom', '{plan}', 'Test', now() + interval '1 day')`,
  'user_data.essay_draft.user_id': `INSERT INTO user_data.essay_draft (id, user_id, prompt_key, prompt, body, word_count)
     VALUES (gen_random_uuid(), $1, 'k', 'Why us?', 'Because', 1)`,
  'user_data.recommender.user_id': `INSERT INTO user_data.recommender (id, user_id, college_key, who)
     VALUES (gen_random_uuid(), $1, 'test college', 'Ms. Lee')`,
  'user_data.application.user_id': `INSERT INTO user_data.application (user_id, college_key, status) VALUES ($1, 'test college', 'submitted')`,
  'user_data.aid_offer.user_id': `INSERT INTO user_data.aid_offer (user_id, college_key) VALUES ($1, 'test college')`,
  'user_data.deadline_settings.user_id': `INSERT INTO user_data.deadline_settings (user_id, entering_year) VALUES ($1, 2027)`,
  'user_data.idempotent_write.uid': `INSERT INTO user_data.idempotent_write (uid, key, route) VALUES ($1, 'k1', '/add-note')`,
  'user_data.push_subscription.user_id': `INSERT INTO user_data.push_subscription (endpoint, user_id, p256dh, auth)
     VALUES ('http://push.test/' || $1, $1, 'p', 'a')`,
  'user_data.reminder_settings.user_id': `INSERT INTO user_data.reminder_settings (user_id) VALUES ($1)`,
  'user_data.reminder_sent.user_id': `INSERT INTO user_data.reminder_sent (user_id, deadline_key, lead_days) VALUES ($1, 'k', 7)`,
  'user_data.reminder_due.user_id': `INSERT INTO user_data.reminder_due (user_id, deadline_key, lead_days, due_at, payload)
     VALUES ($1, 'k', 7, now(), '{}'::jsonb)`,
  'user_data.reminder_stale.user_id': `INSERT INTO user_data.reminder_stale (user_id) VALUES ($1) ON CONFLICT DO NOTHING`,
  'user_data.digest_settings.user_id': `INSERT INTO user_data.digest_settings (user_id, enabled, email, zone, stop_token)
     VALUES ($1, true, 'a@example.com', 'America/Chicago', md5($1) || md5($1))`,
  'user_data.digest_sent.user_id': `INSERT INTO user_data.digest_sent (user_id, week) VALUES ($1, '2026-10-19')`,
  'user_data.digest_due.user_id': `INSERT INTO user_data.digest_due (user_id, due_at) VALUES ($1, now())
     ON CONFLICT DO NOTHING`,
  'user_data.academic_profile.user_id': `INSERT INTO user_data.academic_profile (user_id, act_composite) VALUES ($1, 30)`,
  'user_data.note_read.student_uid': `INSERT INTO user_data.note_read (reader_uid, student_uid, notes) VALUES ('an-admin', $1, 1)`,
  'user_data.note_read.reader_uid': `INSERT INTO user_data.note_read (reader_uid, student_uid, notes) VALUES ($1, 'a-student', 1)`,
  'colleges.ingestion_requester.uid': `WITH r AS (INSERT INTO colleges.ingestion_request (key, name) VALUES ('asked by ' || $1, 'Asked')
       RETURNING key)
     INSERT INTO colleges.ingestion_requester (key, uid, kind) SELECT key, $1, 'new-name' FROM r`,
  'colleges.ai_booking.uid': `INSERT INTO colleges.ai_booking (uid, hour, work) VALUES ($1, date_trunc('hour', now()), 'k')`,
  'colleges.major_requester.uid': `INSERT INTO colleges.major_requester (key, uid) VALUES ('major of ' || $1, $1)`,
  'colleges.private_college_viewer.uid': `WITH c AS (INSERT INTO colleges.private_college (key, requested_name, name, normalized_name, document, review_reason)
       VALUES ('private of ' || $1, 'P', 'P', 'p', '{}', 'test') RETURNING id)
     INSERT INTO colleges.private_college_viewer (college_id, uid) SELECT id, $1 FROM c`,
  'colleges.held_fact_viewer.uid': `WITH c AS (INSERT INTO colleges.college (name, normalized_name, document)
       VALUES ('Held ' || $1, 'held ' || lower($1), '{}') RETURNING id),
     f AS (INSERT INTO colleges.held_fact (college_id, kind, value, reason) SELECT id, 'tips', '[]', 'test' FROM c RETURNING id)
     INSERT INTO colleges.held_fact_viewer (fact_id, uid) SELECT id, $1 FROM f`,
  'essays.example_essay.added_by': `INSERT INTO essays.example_essay (prompt_key, body, origin, added_by) VALUES ('k', 'An essay', 'admin', $1)`,
};

describe('deleting an account', () => {
  const { gw } = gatewaySuite({ queue: 'memory', env: { RUN_WORKER: 'false' } });

  it('needs a sign-in from the last 5 minutes: an older session deletes nothing', async () => {
    const user = await studentWithData(gw, 'Olivia');
    const now = Math.floor(Date.now() / 1000);
    // A valid session whose sign-in was 10 minutes ago (the token itself was refreshed since); the account
    // is made older than that session, so the session is not taken for a revoked one.
    await adminUpdate(user.uid, { validSince: String(now - 3600) });
    const stale = unsignedToken(
      tokenClaims(user.uid, { email: user.email, auth_time: now - 600, iat: now - 5 }),
    );
    for (const path of ['/api/delete-account', '/api/delete-my-data']) {
      const r = await gw.api('POST', path, { token: stale, body: {} });
      expect(r.status, path).toBe(401);
      expect(r.body, path).toEqual({
        success: false,
        message: MSG.recentSignInRequired,
        code: 'UNAUTHENTICATED',
      });
    }
    expect(await leftOf(gw, user.uid)).toBe(2);
    expect(await accountExists(user.uid)).toBe(true);
  });

  it('deletes the data, the staff role and the Firebase account, and ends the session', async () => {
    const user = await studentWithData(gw, 'Noah');
    const r = await gw.api('POST', '/api/delete-account', {
      token: user.idToken,
      body: { userId: user.uid },
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      success: true,
      message: MSG.accountDeleted,
      data: { colleges: 0, notes: 1, staffRoleRemoved: true },
    });
    expect(await leftOf(gw, user.uid)).toBe(0);
    expect(await accountExists(user.uid)).toBe(false);
    expect((await gw.api('GET', '/api/get-notes', { token: user.idToken })).status).toBe(401);
  });

  it('a token used right after delete-account is refused: no note, no calendar feed is made', async () => {
    const user = await createVerifiedUser({ name: 'Leo' });
    // The gateway has verified (and cached) this token before the deletion.
    const note = { note: { title: 'Before', content: 'Written before the deletion' } };
    expect((await gw.api('POST', '/api/add-note', { token: user.idToken, body: note })).status).toBe(200);
    const r = await gw.api('POST', '/api/delete-account', { token: user.idToken, body: {} });
    expect(r.status).toBe(200);

    const after = { note: { title: 'After', content: 'Written after the deletion' } };
    const add = await gw.api('POST', '/api/add-note', { token: user.idToken, body: after });
    expect(add.status).toBe(401);
    expect(add.body.message).toBe('Your account no longer exists.');
    const feed = await gw.api('POST', '/api/create-calendar-feed', { token: user.idToken, body: {} });
    expect(feed.status).toBe(401);
    const left = await gw.db.query<{ n: number }>(
      `SELECT (SELECT count(*)::int FROM user_data.note WHERE user_id = $1)
            + (SELECT count(*)::int FROM user_data.calendar_feed WHERE user_id = $1) AS n`,
      [user.uid],
    );
    expect(left.rows[0]!.n).toBe(0);
  });

  it('leaves no row that names the uid in any table of any service', async () => {
    const user = await createVerifiedUser({ name: 'Mia' });
    const token = user.idToken;
    // What a student leaves through the API...
    const note = { note: { title: 'Plan', content: 'Essays first' } };
    expect((await gw.api('POST', '/api/add-note', { token, body: note })).status).toBe(200);
    expect((await gw.api('POST', '/api/create-calendar-feed', { token, body: {} })).status).toBe(200);
    // ...and a row in every other column the rule finds, as the rest of the product would write it.
    for (const sql of Object.values(UID_COLUMN_SEEDS)) await gw.db.query(sql, [user.uid]);

    const columns = await uidColumns(gw);
    // A new column that names a student must be seeded here and forgotten by delete-account.
    expect(columns.sort()).toEqual(Object.keys(UID_COLUMN_SEEDS).sort());
    const holding = async () => {
      const out: string[] = [];
      for (const c of columns) {
        const [schema, table, column] = c.split('.');
        const r = await gw.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM "${schema}"."${table}" WHERE "${column}" = $1`,
          [user.uid],
        );
        if (r.rows[0]!.n > 0) out.push(c);
      }
      return out.sort();
    };
    expect(await holding()).toEqual(columns);

    const r = await gw.api('POST', '/api/delete-account', { token, body: {} });
    expect(r.status).toBe(200);
    expect(await holding()).toEqual([]);
  });

  it("cannot delete someone else's account", async () => {
    const [mallory, victim] = await Promise.all([createVerifiedUser(), studentWithData(gw, 'Victim')]);
    const r = await gw.api('POST', '/api/delete-account', {
      token: mallory.idToken,
      body: { userId: victim.uid },
    });
    expect(r.status).toBe(403);
    expect(await leftOf(gw, victim.uid)).toBe(2);
    expect(await accountExists(victim.uid)).toBe(true);
    expect(await accountExists(mallory.uid)).toBe(true);
  });
});

describe('when Firebase refuses to delete the account', () => {
  // The real emulator behind a relay that can fail its account deletions, as an outage would.
  let failDeletes = true;
  let relay: http.Server;
  let gw: TestGateway;
  const previousHost = process.env.FIREBASE_AUTH_EMULATOR_HOST;

  beforeAll(async () => {
    const target = emulatorHost();
    relay = http.createServer((req, res) => {
      if (failDeletes && (req.url ?? '').includes('accounts:delete')) {
        res.writeHead(503, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { code: 503, message: 'UNAVAILABLE' } }));
        return;
      }
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const headers = Object.fromEntries(
          Object.entries(req.headers).filter(([k]) => !['host', 'content-length', 'connection'].includes(k)),
        ) as Record<string, string>;
        fetch(`http://${target}${req.url}`, {
          method: req.method,
          headers,
          ...(chunks.length ? { body: Buffer.concat(chunks) } : {}),
        })
          .then(async (r) => {
            res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'application/json' });
            res.end(Buffer.from(await r.arrayBuffer()));
          })
          .catch(() => {
            res.writeHead(502);
            res.end();
          });
      });
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    const relayHost = `127.0.0.1:${(relay.address() as AddressInfo).port}`;
    gw = await startTestGateway({
      queue: 'memory',
      env: { RUN_WORKER: 'false', FIREBASE_AUTH_EMULATOR_HOST: relayHost },
    });
  });
  afterAll(async () => {
    await gw?.close();
    await new Promise((resolve) => relay?.close(resolve));
    process.env.FIREBASE_AUTH_EMULATOR_HOST = previousHost;
  });

  it('says plainly that the data is gone but the account is not, and a retry after signing in finishes', async () => {
    const user = await studentWithData(gw, 'Ava');
    // Revocation counts in whole seconds: tokens from the same second as it stay valid (as in Firebase).
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const r = await gw.api('POST', '/api/delete-account', { token: user.idToken, body: {} });
    expect(r.status).toBe(503);
    expect(r.body).toEqual({
      success: false,
      message: MSG.accountNotDeleted('the sign-in service could not be reached'),
      code: 'DEPENDENCY_UNAVAILABLE',
    });
    expect(String(r.body.message)).not.toMatch(/Firebase|auth\//);
    expect(await leftOf(gw, user.uid)).toBe(0);
    expect(await accountExists(user.uid)).toBe(true);
    // The sessions were ended first: the old token no longer works anywhere.
    expect((await gw.api('GET', '/api/get-notes', { token: user.idToken })).status).toBe(401);

    failDeletes = false;
    // The deletion is recorded to the second: a session from a later second may finish the job.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const fresh = await signIn(user.email, user.password);
    const retry = await gw.api('POST', '/api/delete-account', { token: fresh, body: {} });
    expect(retry.status).toBe(200);
    expect(retry.body.data).toEqual({ colleges: 0, notes: 0, staffRoleRemoved: false });
    expect(await accountExists(user.uid)).toBe(false);
  });
});
