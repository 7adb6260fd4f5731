import { CollegeIngestedEvent, EVENT_SUBSCRIBERS, MSG } from '@ct/contracts';
import { EventBus, openQueue, type QueueBackend } from '@ct/queue';
import {
  browserSuite,
  buildCollege,
  createVerifiedUser,
  seedColleges,
  signInInBrowser,
  TEST_REDIS_URL,
  type TestUser,
} from '@ct/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const COLLEGE = 'Browser Essay College';
const WHY_US = `Why do you want to attend ${COLLEGE}?`;
const COMMUNITY = 'Describe a community you belong to and your place in it.';
const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');

let queue: QueueBackend;
let user: TestUser;

const { gw, openai, newPage } = browserSuite({
  queue: 'bullmq',
  // Embedded, the essays service (like the worker) reads its own variables from the environment.
  env: { OPENAI_MODEL: 'fake-model' },
  openai: {
    responder: (req) => {
      if (req.schemaName !== 'example_essays') return undefined;
      // The community prompt's examples always overrun its limit: no usable example, a failure.
      if (req.input.includes(COMMUNITY))
        return { value: { essays: [{ title: 'Far too long', body: words(900) }] } };
      return {
        value: {
          essays: [
            {
              title: 'The Robotics Lab',
              body: `I first saw the robotics lab on a rainy visit.\n\n${words(80)}`,
            },
            { title: 'A Town Like Mine', body: `My town has one library. ${words(60)}` },
          ],
        },
      };
    },
  },
});
beforeAll(async () => {
  user = await createVerifiedUser({ name: 'Essay Reader' });
  queue = openQueue({ url: TEST_REDIS_URL, prefix: gw.prefix });
  await new EventBus(queue, EVENT_SUBSCRIBERS).publish(
    CollegeIngestedEvent,
    {
      name: COLLEGE,
      aliases: [],
      deadlines: [],
      essayPrompts: [WHY_US, COMMUNITY],
      essayPromptMeta: [
        { prompt: WHY_US, wordLimit: 250 },
        { prompt: COMMUNITY, wordLimit: 300 },
      ],
      ingestedAt: new Date().toISOString(),
    },
    'browser-essay-college',
  );
  // On the student's list too, so the page groups its prompts with the student's other colleges.
  await seedColleges(gw.db, [buildCollege({ name: COLLEGE })]);
  expect(
    (await gw.api('POST', '/api/add-user-college', { token: user.idToken, body: { collegeName: COLLEGE } }))
      .status,
  ).toBe(200);
  for (let i = 0; i < 100; i++) {
    const r = await gw.api('GET', '/api/get-prompts', {
      token: user.idToken,
      query: { collegeName: COLLEGE },
    });
    if (r.status === 200) break;
    await new Promise((res) => setTimeout(res, 100));
  }
});
afterAll(() => queue?.close());

describe('/essays in Chromium', () => {
  it('picks a college, a prompt, reads a labelled example, collapses it, and switches college', async () => {
    const { page, context, errors } = await newPage();
    await signInInBrowser(page, user, { timeout: 45_000 });
    await page.goto('/essays');
    await expect.poll(() => page.title()).toMatch(/^Essay prompts/);

    const grid = page.getByRole('list', { name: 'Colleges with essay prompts' });
    await grid.waitFor();
    const columns = await grid.evaluate((el) => getComputedStyle(el).gridTemplateColumns.split(' ').length);
    expect(columns).toBe(3);
    // The student's own colleges first (marked), then the application platforms.
    expect((await grid.getByRole('button').allInnerTexts()).map((t) => t.split('\n'))).toEqual([
      [COLLEGE, 'Your college'],
      ['Common App'],
      ['University of California'],
    ]);

    await grid.getByRole('button', { name: COLLEGE }).click();
    expect(await grid.getByRole('button', { name: COLLEGE }).getAttribute('aria-pressed')).toBe('true');
    await page.getByRole('heading', { name: `Prompts for ${COLLEGE}` }).waitFor();
    const why = page.getByRole('button', { name: new RegExp(`^${WHY_US.replace(/\?/, '\\?')}`) });
    await why.waitFor();
    await expect.poll(() => why.innerText()).toContain('Up to 250 words');

    await why.click();
    expect(await why.getAttribute('aria-expanded')).toBe('true');
    const example = page.getByRole('article', { name: 'Example essay 1: The Robotics Lab' });
    await example.waitFor({ timeout: 20_000 });
    expect(await example.innerText()).toContain("It is not a real applicant's essay.");
    expect(await example.innerText()).toContain('I first saw the robotics lab on a rainy visit.');
    expect(await page.getByRole('article', { name: 'Example essay 2: A Town Like Mine' }).count()).toBe(1);

    // choosing the same prompt again collapses its essays
    await why.click();
    expect(await why.getAttribute('aria-expanded')).toBe('false');
    expect(await page.getByRole('article').count()).toBe(0);

    // opening it again serves the stored examples: the AI was asked once
    await why.click();
    await example.waitFor();
    expect(openai.responses().filter((r) => r.input.includes(WHY_US))).toHaveLength(1);

    // choosing another college clears the prompts and essays
    await grid.getByRole('button', { name: 'University of California' }).click();
    await page.getByRole('heading', { name: 'Prompts for University of California' }).waitFor();
    expect(await page.getByRole('article').count()).toBe(0);
    expect(
      await page
        .getByRole('region', { name: 'Prompts for University of California' })
        .getByText(WHY_US)
        .count(),
    ).toBe(0);
    await expect.poll(() => page.getByText('Up to 350 words').count()).toBe(8);

    // beyond the spec: the student's colleges' prompts grouped by kind
    const plan = page.getByRole('region', { name: 'Plan your drafts' });
    await plan.getByText('Why this college').waitFor();
    expect(await plan.getByText(`${COLLEGE}:`).count()).toBe(2);
    expect(errors).toEqual([]);
    await context.close();
  }, 90_000);

  it('shows the spec text when example essays cannot be fetched', async () => {
    const { page, context } = await newPage();
    await signInInBrowser(page, user, { timeout: 45_000 });
    await page.goto('/essays');
    await page.getByRole('button', { name: COLLEGE }).click();
    const community = page.getByRole('button', { name: new RegExp(`^${COMMUNITY}`) });
    await community.click();
    await page.getByText('Writing example essays for this prompt', { exact: false }).waitFor();
    // every answer overruns the word limit: three tries, then the failure
    const alert = page.getByRole('alert').filter({ hasText: MSG.errorFetchingEssays });
    await alert.waitFor({ timeout: 40_000 });
    await context.close();
  }, 120_000);
});
