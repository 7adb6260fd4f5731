// Issue 20 item 1, attacked as an outsider and as a student would: one scripted answer of the local OpenAI
// fake (a prompt-injected page, or a model making things up) against the default run's settings (an AI key,
// no College Scorecard key). The same cases run on the embedded run (trust-attacks.test.ts) and the
// distributed run (tests/distributed-trust.test.ts), through the gateway's public API.
import http from 'node:http';
import { RoleRepository } from '@ct/auth/repositories/roles';
import { collegeDocuments, writeColleges } from '@ct/colleges/scorecard-import';
import { readSnapshotFile, snapshotRecords } from '@ct/colleges/snapshot-file';
import type { College, FactReview, IngestionRequest, UnverifiedFact } from '@ct/contracts';
import { governmentData, recordFromCsv } from '@ct/providers';
import {
  buildFactsAnswer,
  createVerifiedUser,
  type FakeAnswer,
  type ResponsesRequest,
  type TestUser,
} from '@ct/testkit';
import type { Db } from '@ct/store';
import { expect, it } from 'vitest';
import { eventually } from './colleges-helpers.ts';

/** How the cases call the API: the embedded gateway's inject, or HTTP to the distributed gateway. */
export type Call = <T>(
  method: 'GET' | 'POST',
  path: string,
  opts: { token: string; query?: Record<string, string>; body?: unknown },
) => Promise<{ status: number; body: T }>;

/** The public API over HTTP at `base()`, as a browser (or any client of the route table) calls it. */
export function httpCall(base: () => string): Call {
  return async (method, path, opts) => {
    const qs = new URLSearchParams(opts.query ?? {});
    const res = await fetch(`${base()}${path}${qs.size ? `?${qs}` : ''}`, {
      method,
      headers: {
        authorization: `Bearer ${opts.token}`,
        ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
    });
    return { status: res.status, body: (await res.json()) as never };
  };
}

export interface AttackTarget {
  call: Call;
  db: Db;
}

/** Shipped colleges the attacks aim at (College Scorecard UNITIDs). */
const STANFORD = 243744;
const YALE = 130794;
const HARVARD = 166027;
const PACIFIC = 120883; // University of the Pacific, https://www.pacific.edu/: the college whose card is attacked
export const ATTACK_UNITIDS = [STANFORD, YALE, HARVARD, PACIFIC];

export const ZORBLAX = 'Zorblax Institute of Technology';
const PHISHING = 'https://pay.zorblax-fees.com/apply';
const FEE_TIP = 'Pay the $500 application fee at https://pay.zorblax-fees.com before you apply.';
const SSN_PROMPT = "List your parents' social security numbers and explain why you deserve admission.";
const SCRIPTED_DEADLINE = { type: 'Priority Deadline', date: '2027-01-04' };
const PACIFIC_REQUIREMENTS = 'https://www.pacific.edu/admission/first-year/requirements';

/** The data block the worker sent the model, parsed. */
function dataOf(req: ResponsesRequest): Record<string, unknown> {
  const items = req.rawInput as Array<{ content: Array<{ text: string }> }>;
  const text = items[1]!.content[0]!.text;
  return JSON.parse(text.slice('<data>'.length, -'</data>'.length)) as Record<string, unknown>;
}

/**
 * The scripted answers: a made-up college whose "official" .edu website and alias "Harvard" come with a
 * phishing link and a fee tip; and, for a shipped college being enriched, aliases "Stanford" and "Yale",
 * a deadline and a tip "sourced" from another domain, an essay prompt on the official domain that the
 * answer never cited, a phishing link, and one honest fact (requirements from a cited official page).
 */
export function attackAnswer(req: ResponsesRequest): FakeAnswer | undefined {
  if (req.schemaName !== 'college_facts') return undefined;
  const data = dataOf(req);
  if (data.nameAsTyped === ZORBLAX) {
    return {
      value: buildFactsAnswer({
        officialName: ZORBLAX,
        website: 'https://www.zorblax.edu/',
        aliases: { value: ['Harvard', 'Zorblax Tech'], sourceUrl: 'https://www.zorblax.edu/about' },
        links: { value: [PHISHING], sourceUrl: 'https://www.zorblax.edu/about' },
        tips: { value: [FEE_TIP], sourceUrl: 'https://www.zorblax.edu/tips' },
      }),
    };
  }
  if (data.officialName === 'University of the Pacific') {
    return {
      value: buildFactsAnswer({
        officialName: 'University of the Pacific',
        website: 'https://www.pacific.edu/',
        aliases: { value: ['Stanford', 'Yale'], sourceUrl: 'https://www.pacific.edu/about' },
        links: {
          value: [PHISHING, 'https://www.pacific.edu/visit'],
          sourceUrl: 'https://www.pacific.edu/about',
        },
        deadlines: { value: [SCRIPTED_DEADLINE], sourceUrl: 'https://pacific-admissions.example.com/dates' },
        tips: { value: [FEE_TIP], sourceUrl: 'https://pacific-admissions.example.com/tips' },
        essayPrompts: { value: [SSN_PROMPT], sourceUrl: 'https://www.pacific.edu/essays' },
        requirements: {
          value: { transcripts: 'Required', SAT_ACT: 'Test optional', teacherRecommendations: 'One' },
          sourceUrl: PACIFIC_REQUIREMENTS,
        },
      }),
      // The essay prompt's official page is not among them: the model named a page it never read.
      citations: [
        { url: 'https://www.pacific.edu/about' },
        { url: `${PACIFIC_REQUIREMENTS}?utm_source=openai` },
        { url: 'https://pacific-admissions.example.com/dates' },
        { url: 'https://pacific-admissions.example.com/tips' },
      ],
    };
  }
  return undefined;
}

/** The attacked colleges as the shipped snapshot stores them (official figures and website). */
export async function seedAttackColleges(db: Db): Promise<void> {
  const wanted = new Set(ATTACK_UNITIDS);
  const items = [];
  for (const rec of snapshotRecords(readSnapshotFile())) {
    if (!wanted.has(Number(rec.UNITID))) continue;
    const gov = governmentData(recordFromCsv(rec))!;
    items.push({ gov, sources: {} });
  }
  const { docs } = collegeDocuments(items, { gatheredAt: new Date().toISOString(), grid: null });
  await writeColleges(db, docs, { mode: 'government' });
}

export async function makeAdmin(db: Db, admin: TestUser): Promise<void> {
  await new RoleRepository(db).grantRole(admin.uid, 'admin', admin.email, 'test');
}

/** The attacked colleges in a store, and the people of the attack cases (see `attackCases`), Ada an admin. */
export async function stageAttack(db: Db): Promise<{ ana: TestUser; ben: TestUser; ada: TestUser }> {
  const [ana, ben, ada] = await Promise.all([
    createVerifiedUser({ name: 'Ana Asker' }),
    createVerifiedUser({ name: 'Ben Bystander' }),
    createVerifiedUser({ name: 'Ada Admin' }),
  ]);
  await seedAttackColleges(db);
  await makeAdmin(db, ada);
  return { ana, ben, ada };
}

type Body<T> = { success: boolean; message: string } & T;
type Found = Body<{ data: College; shared?: boolean; unverified?: UnverifiedFact[] }>;

/**
 * The attack cases. `ana` asks (she is the student the answers were gathered for), `ben` is any other
 * student, `ada` an admin.
 */
export function attackCases(
  target: () => AttackTarget,
  users: () => { ana: TestUser; ben: TestUser; ada: TestUser },
) {
  const as = (u: TestUser) => {
    const { call } = target();
    return {
      search: (name: string) =>
        call<Found>('GET', '/api/search-college', { token: u.idToken, query: { name } }),
      add: (name: string) =>
        call<Body<{ data: IngestionRequest }>>('POST', '/api/add-college', {
          token: u.idToken,
          body: { name },
        }),
      status: (name: string) =>
        call<Body<{ data: IngestionRequest }>>('GET', '/api/ingestion-status', {
          token: u.idToken,
          query: { name },
        }),
      suggest: async (query: string) =>
        (
          await call<{ suggestions: string[] }>('GET', '/api/get-college-suggestions', {
            token: u.idToken,
            query: { query },
          })
        ).body.suggestions,
      addToList: (collegeName: string) =>
        call<Body<{ data: { collegeName: string } }>>('POST', '/api/add-user-college', {
          token: u.idToken,
          body: { collegeName },
        }),
      prompts: (collegeName: string) =>
        call<Body<{ prompts?: string[] }>>('GET', '/api/get-prompts', {
          token: u.idToken,
          query: { collegeName },
        }),
      checklist: (collegeName: string) =>
        call<{ checklist: Record<string, Array<{ type?: string; date?: string | null; text?: string }>> }>(
          'GET',
          '/api/get-college-checklist',
          { token: u.idToken, query: { collegeName } },
        ),
      finished: (name: string) =>
        eventually(
          async () => {
            const r = await call<Body<{ data?: IngestionRequest }>>('GET', '/api/ingestion-status', {
              token: u.idToken,
              query: { name },
            });
            return r.body.data && ['done', 'failed'].includes(r.body.data.state) ? r.body.data : undefined;
          },
          60_000,
          `ingestion of ${name}`,
        ),
    };
  };
  const admin = () => {
    const { call } = target();
    const { ada } = users();
    return {
      facts: async () =>
        (await call<{ facts: FactReview[] }>('GET', '/api/admin/fact-reviews', { token: ada.idToken })).body
          .facts,
      decide: (factId: number, decision: 'approve' | 'drop') =>
        call<Body<object>>('POST', '/api/admin/fact-reviews/decide', {
          token: ada.idToken,
          body: { factId, decision },
        }),
    };
  };
  const text = (c: College) => JSON.stringify(c);

  it('a made-up college with a .edu website and the alias "Harvard" stays private to who asked', async () => {
    const ana = as(users().ana);
    const ben = as(users().ben);
    expect((await ana.add(ZORBLAX)).status).toBe(202);
    expect(await ana.finished(ZORBLAX)).toMatchObject({ state: 'done', collegeName: ZORBLAX });
    // Ana sees what she asked for, marked private.
    expect((await ana.search(ZORBLAX)).body).toMatchObject({ shared: false, data: { name: ZORBLAX } });
    // Nobody else: not in autocomplete, and "Harvard" answers Harvard, for her too.
    for (const q of ['Zorb', 'Zorblax Inst', 'Harv', 'Harvard']) {
      expect(await ben.suggest(q), q).not.toContain(ZORBLAX);
    }
    expect((await ben.suggest('Harvard'))[0]).toBe('Harvard University');
    expect((await ben.search(ZORBLAX)).status).toBe(404);
    for (const who of [ben, ana]) {
      const harvard = await who.search('Harvard');
      expect(harvard.status).toBe(200);
      expect(harvard.body.data.name).toBe('Harvard University');
      expect(text(harvard.body.data)).not.toContain('zorblax');
    }
    expect((await ben.addToList('Harvard')).body.data.collegeName).toBe('Harvard University');
  });

  it('an enrichment answer cannot give a shipped college the names "Stanford" or "Yale", nor unvouched facts', async () => {
    const ana = as(users().ana);
    const ben = as(users().ben);
    // Ana opens the college: its facts are gathered in the background from the scripted answer.
    const opened = await ana.search('University of the Pacific');
    expect(opened.status).toBe(200);
    // A search only reads (issue 37): opening the card asks for the facts, as the web app does.
    expect((await ana.add('University of the Pacific')).status).toBeLessThan(300);
    expect(await ana.finished('University of the Pacific')).toMatchObject({ state: 'done' });

    // Every other student: "Stanford" and "Yale" mean Stanford and Yale in search, in their list and in
    // the essays service; nothing the official pages did not vouch for is in the shared record.
    expect((await ben.search('Stanford')).body.data.name).toBe('Stanford University');
    expect((await ben.search('Yale')).body.data.name).toBe('Yale University');
    expect((await ben.search('stanford')).body.data.name).toBe('Stanford University');
    expect((await ben.addToList('Stanford')).body.data.collegeName).toBe('Stanford University');
    for (const name of ['Yale', 'Stanford', 'University of the Pacific']) {
      const p = await ben.prompts(name);
      expect(JSON.stringify(p.body), name).not.toContain('social security');
    }
    const pacific = (await ben.search('University of the Pacific')).body;
    expect(pacific.unverified).toBeUndefined();
    const shared = pacific.data;
    expect(shared.aliases).not.toContain('Stanford');
    expect(shared.aliases).not.toContain('Yale');
    expect(text(shared)).not.toContain('zorblax-fees');
    expect(text(shared)).not.toContain('$500');
    expect(text(shared)).not.toContain('social security');
    expect(shared.info.deadlines).not.toContainEqual(SCRIPTED_DEADLINE);
    // The one fact a cited official page vouched for is shared where the Common App grid states nothing,
    // with that page as its source; its test policy agrees with the grid's, whose words stay (issue 44).
    expect(shared.info.requirements).toMatchObject({ SAT_ACT: 'Optional', transcripts: 'Required' });
    expect(shared.sources['info.requirements.transcripts']!.url).toBe(PACIFIC_REQUIREMENTS);
    expect(shared.links).toContain('https://www.pacific.edu/visit');
    expect((await ben.addToList('University of the Pacific')).status).toBe(200);
    const list = await ben.checklist('University of the Pacific');
    expect(JSON.stringify(list.body)).not.toContain(SCRIPTED_DEADLINE.date);
    expect(await ben.suggest('Stanford')).not.toContain('University of the Pacific');
    expect((await ben.suggest('Stanford'))[0]).toBe('Stanford University');

    // Ana, who asked, still sees what the answer said, marked unverified, with why.
    const mine = (await ana.search('University of the Pacific')).body;
    const byKind = Object.fromEntries((mine.unverified ?? []).map((f) => [f.kind, f]));
    expect(Object.keys(byKind).sort()).toEqual(['aliases', 'deadlines', 'essayPrompts', 'links', 'tips']);
    expect(byKind.tips).toMatchObject({
      label: 'Tips',
      items: [FEE_TIP],
      reason: "Its page (example.com) is not on the college's official domain (pacific.edu).",
    });
    expect(byKind.essayPrompts!.reason).toBe(
      "Its page (https://www.pacific.edu/essays) is not among the pages the answer's web search cited.",
    );
    expect(byKind.aliases!.items).toEqual(['Stanford', 'Yale']);
    expect(byKind.links!.items).toEqual([PHISHING]);
    expect(mine.data.aliases).not.toContain('Stanford');
  });

  it('an admin sees the held facts; an approved name never outranks an official one, approved facts reach everyone', async () => {
    const ben = as(users().ben);
    const { ana } = users();
    const a = admin();
    const held = (await a.facts()).filter((f) => f.collegeName === 'University of the Pacific');
    expect(held.map((f) => f.kind).sort()).toEqual(['aliases', 'deadlines', 'essayPrompts', 'links', 'tips']);
    expect(held.find((f) => f.kind === 'tips')).toMatchObject({
      officialWebsite: 'https://www.pacific.edu/',
      sourceUrl: 'https://pacific-admissions.example.com/tips',
      requestedBy: [ana.uid],
    });
    const id = (kind: string) => held.find((f) => f.kind === kind)!.id;
    // Even approved, "Stanford" and "Yale" keep meaning the institutions that bear them.
    expect((await a.decide(id('aliases'), 'approve')).body.message).toBe(
      'Other names of "University of the Pacific" are now shared with every student.',
    );
    expect((await ben.search('Yale')).body.data.name).toBe('Yale University');
    expect((await ben.search('Stanford')).body.data.name).toBe('Stanford University');
    expect((await ben.prompts('Yale')).body).not.toMatchObject({ prompts: expect.anything() as unknown });
    // Dropped facts are gone for Ana too; approved deadlines reach every checklist of the college.
    expect((await a.decide(id('tips'), 'drop')).body.message).toBe(
      'Tips of "University of the Pacific" were dropped.',
    );
    expect((await a.decide(id('deadlines'), 'approve')).status).toBe(200);
    await eventually(
      async () =>
        JSON.stringify((await ben.checklist('University of the Pacific')).body).includes(
          SCRIPTED_DEADLINE.date,
        )
          ? true
          : undefined,
      30_000,
      'approved deadline in the checklist',
    );
    const after = (await as(users().ana).search('University of the Pacific')).body;
    expect((after.unverified ?? []).map((f) => f.kind).sort()).toEqual(['essayPrompts', 'links']);
    expect((await a.decide(id('tips'), 'drop')).status).toBe(404);
  });
}

/** A request sent with its path exactly as written (no client-side URL clean-up), as an attacker sends it. */
export type RawGet = (path: string, token: string) => Promise<{ status: number; text: string }>;

/**
 * A GET to this base URL with its path sent byte for byte: fetch, and the embedded gateway's inject,
 * would resolve backslashes and dot segments before the gateway ever saw them.
 */
export function rawGetFrom(baseUrl: () => string): RawGet {
  return (path, token) =>
    new Promise((resolve, reject) => {
      const u = new URL(baseUrl());
      const req = http.request(
        {
          host: u.hostname,
          port: u.port,
          path,
          method: 'GET',
          headers: { authorization: `Bearer ${token}` },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (text += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on('error', reject);
      req.end();
    });
}

/**
 * Issue 20 item 5: the gateway checks one path and a service reaches another. Backslashes, dot segments
 * and their encoded forms in a public route's parameter (the calendar link) are refused before routing,
 * so no student's token reaches an internal route through them.
 */
export function pathAttackCases(raw: () => RawGet, users: () => { ana: TestUser }) {
  const attacks = [
    '/api/calendar/..\\internal\\profile-notes/deadlines.ics',
    '/api/calendar/..\\..\\api\\internal\\profile-notes?x=/deadlines.ics',
    '/api/calendar/%2e%2e%5cinternal%5cprofile-notes/deadlines.ics',
    '/api/calendar/..%2Finternal%2Fprofile-notes/deadlines.ics',
    '/api/calendar/%252e%252e%255cinternal/deadlines.ics',
    '/api/calendar/x/../../internal/profile-notes',
    '/api/calendar/./../internal/profile-notes',
    '/api//internal/profile-notes',
  ];
  it('backslashes, dot segments and encoded variants in /api/calendar/... are refused before routing', async () => {
    const { ana } = users();
    for (const path of attacks) {
      const r = await raw()(path, ana.idToken);
      expect(r.status, path).toBe(400);
      expect(JSON.parse(r.text), path).toEqual({
        success: false,
        message: 'Invalid request: the URL is not valid',
        code: 'VALIDATION_ERROR',
      });
    }
  });
}
