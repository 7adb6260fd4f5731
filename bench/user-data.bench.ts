// Component benchmark (not in the default run: `npm run bench -- user-data`; in-process, logging off).
// The user-data service at scale: 100,000 notes (4,000 students × 25) and 20,000 list entries on the test
// Postgres, then the admin service's internal listings (through the embedded gateway, with its internal
// token) and the per-student reads a page load makes. Prints p50 / p95 per call.
import { performance } from 'node:perf_hooks';
import { startTestGateway } from '../tests/kit/src/index.ts';
import { NoteRepository } from '../services/user-data/src/repositories/notes.ts';
import { UserCollegeRepository } from '../services/user-data/src/repositories/colleges.ts';
import { fmt, report } from './lib.ts';

export const inDefaultRun = false;

const STUDENTS = 4000;
const NOTES_EACH = 25;
const COLLEGES_EACH = 5;
const INTERNAL_TOKEN = 'bench-internal-token-0123456789abcdef';

async function timed(n: number, fn: (i: number) => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn(i);
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  return { p50: ms[Math.floor(n * 0.5)]!, p95: ms[Math.floor(n * 0.95)]! };
}

export async function run(): Promise<void> {
  const gw = await startTestGateway({ queue: 'memory', env: { RUN_WORKER: 'false', INTERNAL_TOKEN } });
  try {
    const t0 = performance.now();
    await gw.db.exec(`
      INSERT INTO user_data.note (id, user_id, title, content, deadline, created_at, updated_at)
      SELECT gen_random_uuid(), 'student-' || lpad(u::text, 5, '0'), 'Note ' || n,
             repeat('Essay ideas and reminders. ', 8), CASE WHEN n % 5 = 0 THEN DATE '2026-11-01' + n END,
             now() - make_interval(mins => n), now()
      FROM generate_series(1, ${STUDENTS}) u, generate_series(1, ${NOTES_EACH}) n;
      INSERT INTO user_data.user_college (user_id, college_key, college_name, checklist)
      SELECT 'student-' || lpad(u::text, 5, '0'), 'college ' || c, 'College ' || c,
             '{"application":[{"text":"Submit","completed":false}],"deadlines":[{"type":"Regular Decision","date":"2027-01-15","completed":false}]}'::json
      FROM generate_series(1, ${STUDENTS}) u, generate_series(1, ${COLLEGES_EACH}) c;
      ANALYZE user_data.note; ANALYZE user_data.user_college;`);
    report('seed 100,000 notes + 20,000 list entries', `${fmt((performance.now() - t0) / 1000, 1)} s`);

    const internal = (path: string) => gw.api('GET', `/api/internal${path}`, { internal: true });
    const check = async (path: string) => {
      const r = await internal(path);
      if (r.status !== 200) throw new Error(`${path}: HTTP ${r.status}`);
    };
    const rows: Array<[string, (i: number) => Promise<unknown>]> = [
      ['admin stats (counts)', () => check('/user-data/stats')],
      ['admin profile notes, first page (50 students)', () => check('/profile-notes?limit=50')],
      ['admin profile notes, page at offset 3,000', () => check('/profile-notes?limit=50&offset=3000')],
      ['admin profile notes, filter by user id part', (i) => check(`/profile-notes?userId=${1000 + i}`)],
      ['admin user colleges, first page (50 students)', () => check('/user-colleges?limit=50')],
      ['admin user colleges, filter by user id part', (i) => check(`/user-colleges?userId=${2000 + i}`)],
    ];
    for (const [label, fn] of rows) {
      await fn(0); // warm-up
      const t = await timed(30, fn);
      report(label, `${fmt(t.p50, 1)} / ${fmt(t.p95, 1)} ms`, 'p95 < 100 ms', t.p95 < 100);
    }

    const notes = new NoteRepository(gw.db);
    const colleges = new UserCollegeRepository(gw.db);
    const student = (i: number) => `student-${String((i % STUDENTS) + 1).padStart(5, '0')}`;
    const reads = await timed(200, (i) => notes.listNotes(student(i)));
    report(
      "one student's notes (25 of 100,000)",
      `${fmt(reads.p50, 2)} / ${fmt(reads.p95, 2)} ms`,
      'p95 < 10 ms',
      reads.p95 < 10,
    );
    const toggles = await timed(200, (i) =>
      colleges.updateChecklist(student(i), 'college 1', (c) => ({
        ...c,
        application: [{ text: 'Submit', completed: i % 2 === 0 }],
      })),
    );
    report(
      'checklist tick (row lock, read, write)',
      `${fmt(toggles.p50, 2)} / ${fmt(toggles.p95, 2)} ms`,
      'p95 < 20 ms',
      toggles.p95 < 20,
    );
  } finally {
    await gw.close();
  }
}
