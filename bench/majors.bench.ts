// Component benchmark (not in the default run: `npm run bench -- majors`; services in-process, logging off).
// Majors and essays: major suggestions in memory and through the gateway, a cached major profile, the
// essay pages' reads (colleges with prompts, a college's prompts, a prompt's stored examples). Real
// Postgres, a real token; latency at 10 connections, throughput at 50.
import { performance } from 'node:perf_hooks';
import type { MajorProfile } from '../packages/contracts/src/index.ts';
import {
  buildCollege,
  createVerifiedUser,
  seedColleges,
  startAuthEmulator,
  startTestGateway,
} from '../tests/kit/src/index.ts';
import { suggestMajors } from '../services/colleges/src/majors/suggest.ts';
import { MajorProfileRepository } from '../services/colleges/src/majors/repository.ts';
import { EssaysRepository, promptKey } from '../services/essays/src/repositories/essays.ts';
import { fmt, load, report } from './lib.ts';

export const inDefaultRun = false;

const COLLEGE = 'Bench Majors University';
const TYPED = [
  'com',
  'comp',
  'bio',
  'engin',
  'psych',
  'phsyics',
  'econ',
  'nurs',
  'art h',
  'data sc',
  'pre med',
  'poli',
];

export async function run(): Promise<void> {
  // In memory: the ranking alone.
  const n = 20_000;
  const t0 = performance.now();
  for (let i = 0; i < n; i++) suggestMajors(TYPED[i % TYPED.length]!);
  const perCall = ((performance.now() - t0) * 1000) / n;
  report('major suggestions, ranking alone (per call)', `${fmt(perCall, 1)} µs`, '≤ 200 µs', perCall <= 200);

  const emulator = await startAuthEmulator({ port: Number(process.env.BENCH_AUTH_EMULATOR_PORT ?? 9292) });
  process.env.FIREBASE_AUTH_EMULATOR_HOST = emulator.host;
  const gw = await startTestGateway({ listen: true, queue: 'memory', env: { RUN_WORKER: 'false' } });
  try {
    const user = await createVerifiedUser({ name: 'Bench Student' });
    const headers = { authorization: `Bearer ${user.idToken}` };
    await seedColleges(gw.db, [buildCollege({ name: COLLEGE })]);
    const key = 'bench majors university|11.0701';
    const profiles = new MajorProfileRepository(gw.db);
    await profiles.requestProfile(
      {
        key,
        collegeName: COLLEGE,
        normalizedCollege: 'bench majors university',
        cip: '11.0701',
        major: 'Computer Science',
      },
      { retryFailedAfterMs: 0, retryNotFoundAfterMs: 0 },
    );
    const profile: MajorProfile = {
      collegeName: COLLEGE,
      major: 'Computer Science',
      cip: '11.0701',
      average_weighted_gpa: 4.0,
      average_sat_score: 1450,
      extracurriculars: ['Robotics'],
      essaytopics: ['Why computing'],
      description: 'Computing.',
      sources: [{ url: 'https://www.example.edu/cs', gatheredAt: new Date().toISOString() }],
      gatheredAt: new Date().toISOString(),
    };
    await profiles.recordProgress(key, { state: 'done', profile });
    const essays = new EssaysRepository(gw.db);
    const prompt = 'Why do you want to study at Bench Majors University?';
    await essays.saveCollegePrompts({ name: COLLEGE }, [{ text: prompt, wordLimit: 250 }]);
    await essays.addExample(promptKey(prompt), {
      title: 'Bench',
      body: 'An example essay. '.repeat(40),
      origin: 'admin',
      addedBy: 'bench',
    });

    const base = `${gw.url}/api`;
    const q = (path: string, query: Record<string, string>) => `${base}${path}?${new URLSearchParams(query)}`;
    const rows: Array<[string, string, number]> = [
      ['major suggestions (gateway)', q('/get-major-suggestions', { query: 'comp' }), 15],
      [
        'major profile, cache hit',
        q('/get-major-profile', { collegeName: COLLEGE, major: 'Computer Science' }),
        15,
      ],
      ['colleges with essay prompts', `${base}/get-colleges-essays`, 15],
      ["a college's prompts", q('/get-prompts', { collegeName: COLLEGE }), 15],
      ["a prompt's stored example essays", q('/get-essays', { collegeName: COLLEGE, prompt }), 15],
    ];
    for (const [label, url, target] of rows) {
      const lat = await load({ url, headers, connections: 10, duration: 5 });
      const thr = await load({ url, headers, connections: 50, duration: 5 });
      for (const r of [lat, thr]) {
        if (r.errors || r.non2xx) throw new Error(`${label}: ${r.errors} errors, ${r.non2xx} non-2xx`);
      }
      report(
        `${label} p50/p99 (10 conn.)`,
        `${fmt(lat.p50, 1)} / ${fmt(lat.p99, 1)} ms`,
        `p99 ≤ ${target} ms`,
        lat.p99 <= target,
      );
      report(`${label} throughput (50 conn.)`, `${fmt(thr.rps)} req/s`);
    }
  } finally {
    await gw.close();
    await emulator.stop();
  }
}
