import { migrateModule, type ServiceModule } from '@ct/service-kit';
import { openDb, type Db } from '@ct/store';
import { buildCollege } from '@ct/testkit';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import collegesService from '../app.ts';
import { CollegeRepository } from './colleges.ts';
import { SuggestionIndex } from '../suggestions.ts';

// The embedded default store (PGlite, Postgres in WebAssembly with pg_trgm) runs the same SQL as the server.
let db: Db;
let repo: CollegeRepository;
beforeAll(async () => {
  db = await openDb({ dataDir: 'memory://' });
  await migrateModule(db, collegesService as unknown as ServiceModule);
  repo = new CollegeRepository(db);
});
afterAll(() => db?.close());

describe('college cache on PGlite', () => {
  it('suggests from memory, caught up with every write committed before the request', async () => {
    const index = new SuggestionIndex(db);
    expect(await index.suggest('quartzridge', 10)).toEqual([]);
    await repo.upsertCollege(buildCollege({ name: 'Quartzridge Polytechnic', scorecardId: 900050 }));
    expect(await index.suggest('quartzridge', 10)).toEqual(['Quartzridge Polytechnic']);
    await repo.upsertCollege(
      buildCollege({ name: 'Quartzridge Polytechnic', scorecardId: 900050, aliases: ['Flintstone Tech'] }),
    );
    expect(await index.suggest('flintstone', 10)).toEqual(['Quartzridge Polytechnic']);
    // Many students at once share one check of the table
    const all = await Promise.all(Array.from({ length: 20 }, () => index.suggest('quartz', 10)));
    expect(new Set(all.map((a) => a.join()))).toEqual(new Set(['Quartzridge Polytechnic']));
  });

  it('asks the table for changes only after this process wrote to it (PGlite has no other writer)', async () => {
    const index = new SuggestionIndex(db);
    expect(await index.suggest('zircon', 10)).toEqual([]);
    const query = vi.spyOn(db, 'query');
    try {
      for (const typed of ['zirc', 'zirco', 'zircon v']) await index.suggest(typed, 10);
      expect(query).not.toHaveBeenCalled();
      await repo.upsertCollege(buildCollege({ name: 'Zircon Valley College', scorecardId: 900060 }));
      expect(await index.suggest('zircon', 10)).toEqual(['Zircon Valley College']);
      expect(query).toHaveBeenCalled();
    } finally {
      query.mockRestore();
    }
  });

  it('stores, finds by name or alias, suggests and lists', async () => {
    await repo.upsertColleges([
      buildCollege({ name: 'Juniper Falls University', aliases: ['JFU'], scorecardId: 900001 }),
      buildCollege({ name: 'Juniper Coast College', scorecardId: 900002 }),
      buildCollege({
        name: 'Maplewood Institute of Technology',
        aliases: ['Juniper Tech'],
        scorecardId: 900003,
      }),
    ]);
    expect((await repo.findCollege('jfu'))!.college.name).toBe('Juniper Falls University');
    expect((await repo.findCollege('JUNIPER  falls university.'))!.factsGathered).toBe(true);
    const index = new SuggestionIndex(db);
    expect(await index.suggest('junip', 10)).toEqual([
      'Juniper Coast College',
      'Juniper Falls University',
      'Maplewood Institute of Technology',
    ]);
    expect(await index.suggest('maplwood', 10)).toContain('Maplewood Institute of Technology');
    const list = await repo.listColleges({ name: 'juniper', full: false, limit: 10, offset: 0 });
    expect(list.total).toBe(2);
  });

  it('upserts idempotently and keeps a stored name when the same institution comes back', async () => {
    const before = await repo.countColleges();
    const again = buildCollege({ name: 'Juniper Falls Univ.', scorecardId: 900001 });
    const stored = await repo.upsertCollege(again);
    expect(stored.name).toBe('Juniper Falls University');
    expect(await repo.countColleges()).toBe(before);
    expect((await repo.findCollege('Juniper Falls Univ'))!.college.name).toBe('Juniper Falls University');
  });

  it('keeps two institutions with one official name apart by place', async () => {
    const a = buildCollege({
      name: 'Cedar Hill College',
      scorecardId: 900010,
      demographics: { schoolCity: 'Ames', schoolState: 'IA' },
    });
    const b = buildCollege({
      name: 'Cedar Hill College',
      scorecardId: 900011,
      demographics: { schoolCity: 'Bend', schoolState: 'OR' },
    });
    await repo.upsertCollege(a);
    const second = await repo.upsertCollege(b);
    expect(second.name).toBe('Cedar Hill College (Bend, OR)');
    expect((await repo.findCollege('Cedar Hill College (Bend, OR)'))!.college.scorecardId).toBe(900011);
  });
});
