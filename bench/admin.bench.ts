// Component benchmark (not in the default run: `npm run bench -- admin`; services in-process, logging off).
// Admin dashboard reads at the scale the issue names: 10,000 colleges and 100,000 notes (5,000 students
// with 20 notes and 2 colleges each). Every admin call goes gateway → admin service → owning service's
// internal API → Postgres, so these figures include the whole path, the admin role check included.
import {
  buildCollege,
  createVerifiedUser,
  startAuthEmulator,
  startTestGateway,
} from '../tests/kit/src/index.ts';
import { RoleRepository } from '../services/auth/src/repositories/roles.ts';
import { CollegeRepository } from '../services/colleges/src/repositories/colleges.ts';
import { fmt, load, report } from './lib.ts';

export const inDefaultRun = false;

const COLLEGES = 10_000;
const STUDENTS = 5_000;
const NOTES_EACH = 20;
const TARGET_P99_MS = 50;

export async function run(): Promise<void> {
  const duration = Number(process.env.BENCH_SECONDS ?? 5);
  const emulator = await startAuthEmulator({ port: Number(process.env.BENCH_AUTH_EMULATOR_PORT ?? 9295) });
  process.env.FIREBASE_AUTH_EMULATOR_HOST = emulator.host;
  const gw = await startTestGateway({
    listen: true,
    queue: 'memory',
    env: { RUN_WORKER: 'false', AUTH_USER_CACHE_MS: '30000' },
  });
  try {
    const admin = await createVerifiedUser({ name: 'Bench Admin' });
    await new RoleRepository(gw.db).grantRole(admin.uid, 'admin', admin.email, 'bench');

    let t = Date.now();
    const words = [
      'Harbor',
      'Summit',
      'Prairie',
      'Lakeside',
      'Granite',
      'Cedar',
      'Beacon',
      'Meadow',
      'Falcon',
      'Willow',
    ];
    await new CollegeRepository(gw.db).upsertColleges(
      Array.from({ length: COLLEGES }, (_, i) =>
        buildCollege({ name: `${words[i % 10]} Bench College ${i}` }),
      ),
    );
    const seedColleges = Date.now() - t;

    // Seeding only: straight into the user-data service's tables in two statements, because 100,000
    // add-note calls would take minutes. The measured reads below go through the APIs like any admin.
    t = Date.now();
    await gw.db.query(
      `INSERT INTO user_data.note (id, user_id, title, content, created_at, updated_at)
       SELECT gen_random_uuid(), 'bench-student-' || lpad((n / $2)::text, 5, '0'), 'Note ' || n,
              'Remember item ' || n, now() - n * interval '1 second', now()
       FROM generate_series(0, $1 - 1) AS n`,
      [STUDENTS * NOTES_EACH, NOTES_EACH],
    );
    await gw.db.query(
      `INSERT INTO user_data.user_college (user_id, college_key, college_name, checklist)
       SELECT 'bench-student-' || lpad(s::text, 5, '0'), 'harbor bench college ' || (s * 2 + k) * 10,
              'Harbor Bench College ' || (s * 2 + k) * 10, '{}'::json
       FROM generate_series(0, $1 - 1) AS s, generate_series(0, 1) AS k`,
      [STUDENTS],
    );
    // Fresh tables: give the planner real statistics, as autovacuum would shortly after a bulk load.
    await gw.db.exec('ANALYZE user_data.note; ANALYZE user_data.user_college; ANALYZE colleges.college');
    const seedNotes = Date.now() - t;

    const headers = { authorization: `Bearer ${admin.idToken}` };
    const calls: [string, string][] = [
      ['metrics', '/api/admin/metrics'],
      ['colleges, first page of 50', '/api/admin/colleges?limit=50'],
      ['colleges, page at offset 9,000', '/api/admin/colleges?limit=50&offset=9000'],
      ['colleges, name filter (1,000 match)', '/api/admin/colleges?name=harbor&limit=50'],
      [
        'colleges, one by full name + full data',
        `/api/admin/colleges?name=${encodeURIComponent('Cedar Bench College 4205')}&full=true`,
      ],
      ['profile notes, first 50 students', '/api/admin/profile-notes?limit=50'],
      ['profile notes, one student', '/api/admin/profile-notes?filterUserId=bench-student-04242'],
      ['user colleges, first 50 students', '/api/admin/user-colleges?limit=50'],
      ['staff', '/api/admin/staff'],
    ];
    report('seed 10,000 colleges (one batched upsert)', `${fmt(seedColleges)} ms`);
    report('seed 100,000 notes + 10,000 list entries', `${fmt(seedNotes)} ms`);
    await load({ url: `${gw.url}${calls[0]![1]}`, headers, duration: 1, connections: 10 }); // warm-up
    for (const [label, path] of calls) {
      const r = await load({ url: `${gw.url}${path}`, headers, duration, connections: 10 });
      const ok = r.errors === 0 && r.non2xx === 0;
      report(`admin ${label} (10 conn.)`, `${fmt(r.rps)} req/s`);
      report(
        '  latency p50 / p99, failed requests',
        `${fmt(r.p50, 1)} / ${fmt(r.p99, 1)} ms, ${r.errors + r.non2xx}`,
        `p99 <= ${TARGET_P99_MS} ms, no errors`,
        ok && r.p99 <= TARGET_P99_MS,
      );
    }
  } finally {
    await gw.close();
    await emulator.stop();
  }
}
