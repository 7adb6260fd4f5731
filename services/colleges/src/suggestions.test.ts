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
    // Equally prominent here (the factory's figures): the shorter name first.
    expect(await index.suggest('colby', 10)).toEqual([
      'Colby College',
      'Colby-Sawyer College',
      'Colby Community College',
    ]);
  });

  it('ranks names with a word starting with each typed word after names starting with the text', async () => {
    expect(await index.suggest('sawyer', 10)).toEqual(['Colby-Sawyer College']);
    // "Michigan State University" starts with neither typed word, so it follows "State University of ...".
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

  it('puts first the college a student likely means: larger, four-year, main campus; exact names on top', async () => {
    const college = (name: string, i: number, size: number | null, degree: number, main: boolean) =>
      buildCollege({
        name,
        scorecardId: 920_000 + i,
        demographics: { schoolSize: size, predominantDegree: degree, mainCampus: main },
      });
    await new CollegeRepository(db).upsertColleges([
      college('Lakeview Beauty Academy', 0, 40, 1, true),
      college('Lakeview State University-Branch Campus', 1, 2_000, 3, false),
      college('Lakeview State University-Main Campus', 2, 30_000, 3, true),
      college('University of Lakeview', 3, 9_000, 3, true),
      college('Lakeview Community College', 4, 20_000, 2, true),
      college('Lakeview School of Theology', 5, null, 4, true),
    ]);
    expect(await index.suggest('lakeview', 10)).toEqual([
      'Lakeview State University-Main Campus',
      // Its name starts at "Lakeview" for a student: "University of" only opens it.
      'University of Lakeview',
      'Lakeview Community College',
      'Lakeview State University-Branch Campus',
      'Lakeview Beauty Academy',
      'Lakeview School of Theology',
    ]);
    expect((await index.suggest('lakeview beauty academy', 10))[0]).toBe('Lakeview Beauty Academy');
    expect((await index.suggest('lakeview sta', 10))[0]).toBe('Lakeview State University-Main Campus');
  });

  it('lists every name starting with the text when they fit, and the best later matches in what is left', async () => {
    const college = (name: string, i: number, size: number) =>
      buildCollege({
        name,
        scorecardId: 930_000 + i,
        demographics: { schoolSize: size, predominantDegree: 3, mainCampus: true },
      });
    await new CollegeRepository(db).upsertColleges([
      ...Array.from({ length: 10 }, (_, i) => college(`Kestrel Beauty School ${'ABCDEFGHIJ'[i]}`, i, 30)),
      college('Northern Kestrel University', 10, 40_000),
      college('Falcon Crest Beauty School', 11, 30),
      college('Northern Falcon University', 12, 40_000),
    ]);
    // Ten names start with "kestrel": a student typing the start of one of them finds it (issue 25).
    const kestrel = await index.suggest('kestrel', 10);
    expect(kestrel).toHaveLength(10);
    expect(kestrel).not.toContain('Northern Kestrel University');
    // One starts with "falcon": the larger university with the word later is listed too, and first.
    expect(await index.suggest('falcon', 10)).toEqual([
      'Northern Falcon University',
      'Falcon Crest Beauty School',
    ]);
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
