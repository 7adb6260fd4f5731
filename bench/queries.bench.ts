// Component benchmark (not in the default run: `npm run bench -- queries`): Postgres statements per student
// action, for the capacity model (docs/performance.md, issue 45). The embedded run on real Postgres, every
// statement of every module counted at the one database handle they share (a transaction's BEGIN and
// COMMIT count as one statement each). Each step of the load test's session runs 5 times for a student
// with three colleges and a checklist, with the production user-state cache (30 s); the median is
// printed. Counts, not times: they do not move with the host.
import type { Db, Queryable } from '@ct/store';
import {
  buildCollege,
  createVerifiedUser,
  seedColleges,
  startAuthEmulator,
  startTestGateway,
  type TestGateway,
} from '../tests/kit/src/index.ts';
import { CHECKLIST } from '../load/session.ts';
import { report } from './lib.ts';

export const inDefaultRun = false;

const COLLEGES = ['Queries State University', 'Queries College', 'Queries Institute of Technology'];

/** Counts every statement sent through `db`, transactions included. */
function counted(db: Db): { reset(): void; readonly n: number } {
  let n = 0;
  const query = db.query.bind(db);
  const transaction = db.transaction.bind(db);
  const wrap = (q: Queryable): Queryable => ({
    query: (sql, params) => {
      n++;
      return q.query(sql, params);
    },
    exec: (sql) => {
      n++;
      return q.exec(sql);
    },
  });
  Object.assign(db, {
    query: (sql: string, params?: readonly unknown[]) => {
      n++;
      return query(sql, params);
    },
    transaction: <T>(fn: (tx: Queryable) => Promise<T>) => {
      n += 2; // BEGIN, COMMIT
      return transaction((tx) => fn(wrap(tx)));
    },
  });
  return {
    reset: () => {
      n = 0;
    },
    get n() {
      return n;
    },
  };
}

export async function run(): Promise<void> {
  const emulator = await startAuthEmulator({ port: Number(process.env.BENCH_AUTH_EMULATOR_PORT ?? 9293) });
  process.env.FIREBASE_AUTH_EMULATOR_HOST = emulator.host;
  let gw: TestGateway | null = null;
  try {
    // The production user-state cache (30 s), not the tests' none.
    gw = await startTestGateway({
      queue: 'memory',
      env: { RUN_WORKER: 'false', AUTH_USER_CACHE_MS: '30000' },
    });
    await seedColleges(
      gw.db,
      COLLEGES.map((name) => buildCollege({ name })),
    );
    const user = await createVerifiedUser({ name: 'Queries Student' });
    const token = user.idToken;
    const api = gw.api.bind(gw);
    for (const collegeName of COLLEGES)
      await api('POST', '/api/add-user-college', { token, body: { collegeName } });
    await api('POST', '/api/update-checklist', {
      token,
      body: { collegeName: COLLEGES[0], checklist: CHECKLIST },
    });
    const count = counted(gw.db);
    let round = 0;
    const steps: Array<[string, () => Promise<{ status: number }>]> = [
      ['list colleges (get-user-colleges)', () => api('GET', '/api/get-user-colleges', { token })],
      [
        'open a checklist (get-college-checklist)',
        () => api('GET', '/api/get-college-checklist', { token, query: { collegeName: COLLEGES[0] } }),
      ],
      [
        'tick an item (update-checklist)',
        () =>
          api('POST', '/api/update-checklist', {
            token,
            body: {
              collegeName: COLLEGES[0],
              section: 'application',
              itemIndex: round % 5,
              completed: round++ % 2 === 0,
            },
          }),
      ],
      [
        'type in search (get-college-suggestions)',
        () => api('GET', '/api/get-college-suggestions', { token, query: { query: 'quer' } }),
      ],
      [
        'look a college up (search-college)',
        () => api('GET', '/api/search-college', { token, query: { name: COLLEGES[1] } }),
      ],
      [
        'write a note (add-note)',
        () =>
          api('POST', '/api/add-note', {
            token,
            body: {
              note: { title: `Note ${round++}`, content: 'Ask about the fee waiver.', deadline: null },
            },
          }),
      ],
      ['read notes (get-notes)', () => api('GET', '/api/get-notes', { token })],
      ['read deadlines (get-deadlines)', () => api('GET', '/api/get-deadlines', { token })],
    ];
    for (const [label, step] of steps) {
      const counts: number[] = [];
      for (let i = 0; i < 5; i++) {
        count.reset();
        const r = await step();
        if (r.status >= 300) throw new Error(`${label}: ${r.status}`);
        counts.push(count.n);
      }
      counts.sort((a, b) => a - b);
      report(`Postgres statements: ${label}`, `${counts[2]} (${counts[0]}–${counts[4]})`);
    }
  } finally {
    await gw?.close();
    await emulator.stop();
  }
}
