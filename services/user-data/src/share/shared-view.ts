import { localToday, type SharedCollege, type SharedView } from '@ct/contracts';
import type { ShareScope } from '@ct/contracts/share';
import type { Deps } from '../deps.ts';
import { presentAcademicProfile, presentAidOffer, presentNote, presentProfile } from '../presenters.ts';
import type { ShareLinkRow } from '../repositories/share-links.ts';
import { nextByCollege, sharedDeadlines } from './next-deadlines.ts';

/** Where a share link's own calendar feed lives: behind the link's token, never the student's own feed. */
export const sharedFeedPath = (token: string) => `/api/shared/${token}/deadlines.ics`;

/** The page a share link opens. */
export const sharedPagePath = (token: string) => `/shared/${token}`;

const percent = (done: number, total: number) => (total ? Math.round((done / total) * 100) : 0);

/**
 * What a share link shows, read now: the list of colleges, and of everything else only what the link's
 * scope names. Parts outside the scope are not read at all, so nothing private can slip into the reply.
 */
export async function buildSharedView(deps: Deps, link: ShareLinkRow, token: string): Promise<SharedView> {
  const uid = link.user_id;
  const has = (s: ShareScope) => link.scope.includes(s);
  const today = localToday();
  const [list, apps, offers, deadlines] = await Promise.all([
    deps.colleges.listColleges(uid),
    has('plan') || has('status') ? deps.season.listApplications(uid) : Promise.resolve([]),
    has('aid') ? deps.season.listAidOffers(uid) : Promise.resolve([]),
    has('deadlines') ? sharedDeadlines(deps, uid, link.scope) : Promise.resolve([]),
  ]);
  const appOf = new Map(apps.map((a) => [a.college_key, a]));
  const offerOf = new Map(offers.map((o) => [o.college_key, o]));
  const next = nextByCollege(deadlines);
  const colleges = list.map((c) => {
    const out: SharedCollege = { collegeName: c.college_name };
    const app = appOf.get(c.college_key);
    if (has('plan')) out.plan = (app?.plan ?? null) as SharedCollege['plan'];
    if (has('status')) out.status = (app?.status ?? 'researching') as NonNullable<SharedCollege['status']>;
    if (has('deadlines')) out.nextDeadline = next.get(c.college_name) ?? null;
    if (has('progress')) {
      const items = Object.values(c.checklist).flat();
      out.progress = percent(items.filter((i) => i.completed).length, items.length);
    }
    if (has('checklist')) out.checklist = c.checklist;
    if (has('aid')) {
      const offer = offerOf.get(c.college_key);
      out.aidOffer = offer ? presentAidOffer(offer) : null;
    }
    return out;
  });

  const view: SharedView = {
    sharedBy: link.display_name,
    scope: link.scope,
    asOf: new Date().toISOString(),
    today,
    expiresAt: link.expires_at.toISOString(),
    colleges,
  };
  if (has('deadlines')) view.deadlines = deadlines;
  if (has('calendar')) view.calendarPath = sharedFeedPath(token);
  if (has('notes')) view.notes = (await deps.notes.listNotes(uid)).map(presentNote);
  if (has('drafts'))
    view.essayDrafts = (await deps.drafts.listDrafts(uid)).map((d) => ({
      prompt: d.prompt,
      body: d.body,
      updatedAt: d.updated_at.toISOString(),
    }));
  if (has('scores')) {
    const { satReadingWriting, satMath, act, gpa, updatedAt } = presentAcademicProfile(
      await deps.academic.getAcademic(uid),
      new Map(list.map((c) => [c.college_key, c.college_name])),
    );
    view.scores = { satReadingWriting, satMath, act, gpa, updatedAt };
  }
  if (has('income')) view.incomeBand = presentProfile(await deps.profiles.getProfile(uid)).incomeBand;
  if (has('email')) view.email = link.email;
  return view;
}
