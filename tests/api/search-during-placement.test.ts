// A search answered while the worker places a college's facts from its own pages: the search reads the
// college, then the request row. When the job commits in between, the row says "done" while the college
// read is from before; the card, told the facts are in, stopped watching and never showed them (seen in a
// browser walk on a loaded machine). The route reads the college again then: "done" comes with the facts.
// Real gateway, worker, Postgres and Redis; the College Scorecard and OpenAI are the local fakes.
import { CollegeRepository } from '@ct/colleges/repositories/colleges';
import { IngestionRepository } from '@ct/colleges/repositories/ingestion';
import { normaliseCollegeName, type College, type Enrichment } from '@ct/contracts';
import { governmentCollege, governmentData, recordFromCsv } from '@ct/providers';
import { buildFactsAnswer, createVerifiedUser, providerFakes, type TestUser } from '@ct/testkit';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { collegesSuite, eventually } from './colleges-helpers.ts';

const YALE = 'Yale University';
const KEY = normaliseCollegeName(YALE);
const TIP = 'Start the application early.';

/** Holds the AI's answer back until the test lets it go: the job waits in "reading the pages". */
let answerHeld: Promise<void> = Promise.resolve();
let letAnswerGo: () => void = () => {};

const { scorecard, providerEnv } = providerFakes({
  openai: {
    responder: async (req) => {
      if (req.schemaName !== 'college_facts') return undefined;
      await answerHeld;
      return {
        value: buildFactsAnswer({
          officialName: YALE,
          website: 'https://www.yale.edu/',
          tips: { value: [TIP], sourceUrl: 'https://www.yale.edu/admissions' },
        }),
        citations: [{ url: 'https://www.yale.edu/admissions', title: 'Admissions' }],
      };
    },
  },
});

type Found = { data: College; enrichment?: Enrichment };

describe('a search answered while the college’s own pages are being placed', () => {
  const gw = collegesSuite(() => ({ ...providerEnv(), INGESTION_BACKOFF_MS: '50' }));
  let student: TestUser;
  const requestRow = async () =>
    (
      await gw.db.query<{ state: string; stage: string }>(
        'SELECT state, stage FROM colleges.ingestion_request WHERE key = $1',
        [KEY],
      )
    ).rows[0];

  beforeAll(async () => {
    student = await createVerifiedUser({ name: 'Skew' });
    const yale = governmentData(recordFromCsv(scorecard.row(130794)!))!;
    await new CollegeRepository(gw.db).upsertColleges([governmentCollege(yale, new Date().toISOString())], {
      mode: 'government',
    });
  });

  it('says "done" only with the facts, when the job commits between the two reads', async () => {
    answerHeld = new Promise((resolve) => (letAnswerGo = resolve));
    const add = await gw.api('POST', '/api/add-college', { token: student.idToken, body: { name: YALE } });
    expect(add.status).toBe(200);
    await eventually(async () => ((await requestRow())?.stage === 'college-facts' ? true : undefined));

    // The search's read of the request row (and only that read) first lets the job finish and commit.
    const read = IngestionRepository.prototype.get;
    let armed = true;
    const spy = vi.spyOn(IngestionRepository.prototype, 'get').mockImplementation(async function (
      this: IngestionRepository,
      ...args: Parameters<IngestionRepository['get']>
    ) {
      if (armed && new Error().stack?.includes('enrichmentStatus')) {
        armed = false;
        letAnswerGo();
        await eventually(async () => ((await requestRow())?.state === 'done' ? true : undefined));
      }
      return read.apply(this, args);
    });
    try {
      const found = await gw.api<Found>('GET', '/api/search-college', {
        token: student.idToken,
        query: { name: YALE },
      });
      expect(armed).toBe(false);
      expect(found.status).toBe(200);
      expect(found.body.enrichment).toEqual({ state: 'done', message: null });
      expect(found.body.data.info.tips).toEqual([TIP]);
    } finally {
      spy.mockRestore();
      letAnswerGo();
    }
  });
});
