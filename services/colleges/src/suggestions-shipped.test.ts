import { LIMITS, normaliseCollegeName } from '@ct/contracts';
import { migrateModule, type ServiceModule } from '@ct/service-kit';
import { openDb, type Db } from '@ct/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import collegesService from './app.ts';
import { loadSnapshot } from './snapshot.ts';
import { SuggestionIndex } from './suggestions.ts';

// Issue 49: on the data the product ships (every College Scorecard institution), what students type finds
// the college they mean among the first three suggestions, as the suggestions route asks for them.
let db: Db;
let index: SuggestionIndex;
beforeAll(async () => {
  db = await openDb({ dataDir: 'memory://' });
  await migrateModule(db, collegesService as unknown as ServiceModule);
  await loadSnapshot(db);
  index = new SuggestionIndex(db);
}, 120_000);
afterAll(() => db?.close());

const suggest = (typed: string) => index.suggest(normaliseCollegeName(typed), LIMITS.suggestionMaxResults);

/** What a student types, and the college (its name in the shipped data) most students typing it mean. */
const EVERYDAY: Array<[string, string]> = [
  // The four of the issue.
  ['Ohio Sta', 'Ohio State University-Main Campus'],
  ['Notre', 'University of Notre Dame (Notre Dame, IN)'],
  ['Miami', 'University of Miami'],
  ['Boston', 'Boston University'],
  ['Wright', 'Wright State University-Main Campus'],
  ['Standford', 'Stanford University'],
  ['Harvard', 'Harvard University'],
  ['Yale', 'Yale University'],
  ['Prince', 'Princeton University'],
  ['Duke', 'Duke University'],
  ['Michigan', 'University of Michigan-Ann Arbor'],
  ['Penn State', 'The Pennsylvania State University'],
  ['UCLA', 'University of California-Los Angeles'],
  ['MIT', 'Massachusetts Institute of Technology'],
  ['Georgia Tech', 'Georgia Institute of Technology-Main Campus'],
  ['Texas A&M', 'Texas A & M University-College Station'],
  ['Purdue', 'Purdue University-Main Campus'],
  ['Rutgers', 'Rutgers University-New Brunswick'],
  ['Northwest', 'Northwestern University'],
  ['Columbia', 'Columbia University in the City of New York'],
  ['NYU', 'New York University'],
  ['Berkeley', 'University of California-Berkeley'],
  ['Vanderb', 'Vanderbilt University'],
  ['Cornell', 'Cornell University'],
  ['Arizona State', 'Arizona State University Campus Immersion'],
  ['Florida', 'University of Florida'],
  ['USC', 'University of Southern California'],
  ['Johns Hop', 'Johns Hopkins University'],
  ['Clemson', 'Clemson University'],
  ['Alabama', 'The University of Alabama'],
  ['UNC', 'University of North Carolina at Chapel Hill'],
  ['Georgetown', 'Georgetown University'],
  ['Brown', 'Brown University'],
  ['Emory', 'Emory University'],
  ['Howard', 'Howard University'],
  ['Cal Poly', 'California Polytechnic State University-San Luis Obispo'],
  ['UMass', 'University of Massachusetts-Amherst'],
  ['Georgia', 'University of Georgia'],
  ['Washington', 'University of Washington-Seattle Campus'],
  ['Boston Col', 'Boston College'],
];

describe('suggestions on the shipped data', () => {
  it.each(EVERYDAY)('"%s" suggests %s among the first three', async (typed, meant) => {
    const got = await suggest(typed);
    expect(got.slice(0, 3), `${typed}: ${got.join(' | ')}`).toContain(meant);
  });

  it('still lists the names that start with the typed text after the likely ones', async () => {
    const got = await suggest('Ohio Sta');
    expect(got[0]).toBe('Ohio State University-Main Campus');
    expect(got).toHaveLength(LIMITS.suggestionMaxResults);
    expect(got.every((name) => /\bOhio Sta/i.test(name))).toBe(true);
  });
});
