import { migrateModule, type ServiceModule } from '@ct/service-kit';
import { openDb, type Db } from '@ct/store';
import { buildCollege } from '@ct/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import collegesService from './app.ts';
import { CollegeRepository } from './repositories/colleges.ts';
import { matchWords, SuggestionIndex } from './suggestions.ts';

// Ranking of the autocomplete, on the embedded store (PGlite) with the real index.
let db: Db;
let index: SuggestionIndex;
beforeAll(async () => {
  db = await openDb({ dataDir: 'memory://' });
  await migrateModule(db, collegesService as unknown as ServiceModule);
  const names = [
    'Bowdoin College',
    'Bates College',
    'Colgate University',
    'Colby College',
    'Colby-Sawyer College',
    'Colby Community College',
    'Michigan State University',
    'Ohio State University-Main Campus',
    'State University of New York at New Paltz',
    'Harvard University',
  ];
  await new CollegeRepository(db).upsertColleges(
    names.map((name, i) => buildCollege({ name, scorecardId: 910_000 + i })),
  );
  index = new SuggestionIndex(db);
});
afterAll(() => db?.close());

describe('suggestion ranking', () => {
  it('"colby" suggests the Colbys, Colby College first, and never Bowdoin or other "... College"s', async () => {
    expect(await index.suggest('colby', 10)).toEqual([
      'Colby College',
      'Colby Community College',
      'Colby-Sawyer College',
    ]);
  });

  it('ranks names with a word starting with each typed word after names starting with the text', async () => {
    expect(await index.suggest('sawyer', 10)).toEqual(['Colby-Sawyer College']);
    expect(await index.suggest('state univ', 10)).toEqual([
      'State University of New York at New Paltz',
      'Michigan State University',
      'Ohio State University-Main Campus',
    ]);
  });

  it('still forgives a typo, closest first, without reaching for unrelated names', async () => {
    const colbi = await index.suggest('colbi', 10);
    expect(colbi[0]).toBe('Colby College');
    expect(colbi).not.toContain('Bowdoin College');
    expect(colbi).not.toContain('Colgate University');
    expect(await index.suggest('havard', 10)).toEqual(['Harvard University']);
  });

  it('asks every typed word to match', () => {
    expect(matchWords(['colby'], 'bowdoin college')).toBeNull();
    expect(matchWords(['colby', 'sawyer'], 'colby sawyer college')).toMatchObject({
      prefix: true,
      position: 0,
    });
    expect(matchWords(['sawyer'], 'colby sawyer college')).toMatchObject({ prefix: true, position: 1 });
    expect(matchWords(['michigan', 'stat'], 'ohio state university')).toBeNull();
    expect(matchWords(['maplwood'], 'maplewood institute of technology')).toMatchObject({ prefix: false });
  });
});
