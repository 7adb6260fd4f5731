// The distributed floor's service: bare Fastify (no logging, no plugins) answering get-user-colleges with
// the same SQL as user-data's `listCollegeNames`, run as a named prepared statement on the same Postgres
// database and rows, from a pg pool of the app's default size (DB_POOL_MAX 10). The student is the token's
// subject, read (not verified) once per token and kept, as the app's verifier keeps a verified token.
// Its answer has the app's shape and bytes. bench/floor-proxy.ts stands in front of it.
import Fastify from 'fastify';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const LIST = {
  name: 'floor_list_college_names',
  text: `SELECT college_key, college_name, scorecard_id, added_at FROM user_data.user_college
       WHERE user_id = $1 ORDER BY added_at, id`,
};

const subjects = new Map<string, string>();
function subject(authorization: string | undefined): string | null {
  if (!authorization) return null;
  let uid = subjects.get(authorization);
  if (uid === undefined) {
    const payload = authorization.split('.')[1];
    if (!payload) return null;
    uid = (JSON.parse(Buffer.from(payload, 'base64url').toString()) as { sub?: string }).sub ?? '';
    subjects.set(authorization, uid);
  }
  return uid || null;
}

interface Row {
  college_key: string;
  college_name: string;
  scorecard_id: number | null;
  added_at: Date;
}

const app = Fastify({ logger: false });
app.get('/healthz', async () => ({ ok: true }));
app.get('/api/get-user-colleges', async (request, reply) => {
  const uid = subject(request.headers.authorization);
  if (!uid) return reply.status(401).send({ success: false });
  const { rows } = await pool.query<Row>({ ...LIST, values: [uid] });
  return {
    success: true,
    message: 'Colleges Found For User',
    colleges: rows.map((r) => ({
      collegeId: r.college_key,
      collegeName: r.college_name,
      ...(r.scorecard_id !== null ? { scorecardId: r.scorecard_id } : {}),
      addedAt: r.added_at.toISOString(),
    })),
  };
});

await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
const stop = () => void app.close().then(() => pool.end().finally(() => process.exit(0)));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
