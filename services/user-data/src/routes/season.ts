import {
  aidOfferFigures,
  canAnswer,
  getSeason,
  INPUT_MSG,
  inSeasonRange,
  localToday,
  PLAN_LABELS,
  removeAidOffer,
  saveAidOffer,
  STATUS_LABELS,
  updateApplication,
  type Application,
  type ApplicationStatus,
} from '@ct/contracts';
import { AppError, implement, requireUser, type Implementation } from '@ct/service-kit';
import { studentDeadlines } from '../deadlines/next-deadlines.ts';
import { collegeKey, requireListedCollege, type Deps } from '../deps.ts';
import { UD_MSG } from '../messages.ts';
import { presentApplication, presentSeasonCollege } from '../presenters.ts';
import type { ApplicationChange } from '../repositories/season.ts';

const money = (n: number) => `$${n.toLocaleString('en-US')}`;

/** The dates of an application change, as a student reads their names. */
const DATE_FIELDS = {
  submittedOn: 'submission date',
  expectedDecisionOn: 'expected decision date',
  decisionOn: 'decision date',
  replyBy: 'reply date',
  depositDue: 'deposit deadline',
  housingDue: 'housing deadline',
} as const;

/** The fields an application change may set, as a student reads their names. */
const FIELD_NAMES: Record<keyof ApplicationChange, string> = {
  plan: 'plan',
  status: 'status',
  ...DATE_FIELDS,
  portalUrl: 'portal link',
  portalSetUp: 'portal set up',
};

/** What an application now holds in the given fields, as a student reads it ("status: Admitted"). */
function describe(a: Application, fields: ReadonlyArray<keyof ApplicationChange>): string {
  const value = (f: keyof ApplicationChange) => {
    if (f === 'status') return STATUS_LABELS[a.status];
    if (f === 'plan') return a.plan ? PLAN_LABELS[a.plan] : 'not chosen';
    if (f === 'portalSetUp') return a.portalSetUp ? 'yes' : 'no';
    return a[f] ?? 'none';
  };
  return fields.map((f) => `${FIELD_NAMES[f]}: ${value(f)}`).join(', ');
}

/**
 * The season: every college of the list at a glance, the application to each (plan, status through to
 * enrollment, dates, portal) and the award letters the student typed in.
 */
export function seasonRoutes(deps: Deps): Implementation[] {
  const { colleges, season, recommenders } = deps;

  /** One college of the student's list, as the overview shows it, read after a change. */
  async function seasonCollege(uid: string, name: string) {
    const college = await requireListedCollege(deps, uid, name);
    const [apps, offers, recs, dl] = await Promise.all([
      season.listApplications(uid),
      season.listAidOffers(uid),
      recommenders.listRecommenders(uid, college.college_key),
      studentDeadlines(deps, uid),
    ]);
    return presentSeasonCollege(
      college,
      apps.find((a) => a.college_key === college.college_key) ?? null,
      offers.find((o) => o.college_key === college.college_key) ?? null,
      recs,
      dl.today,
      dl.colleges.get(college.college_key) ?? { all: [], next: null },
    );
  }

  return [
    implement(getSeason, async (request) => {
      const uid = requireUser(request);
      const [list, apps, offers, recs, dl] = await Promise.all([
        colleges.listColleges(uid),
        season.listApplications(uid),
        season.listAidOffers(uid),
        recommenders.listRecommenders(uid),
        studentDeadlines(deps, uid),
      ]);
      const today = dl.today;
      const byKey = <T extends { college_key: string }>(rows: T[]) =>
        new Map(rows.map((r) => [r.college_key, r]));
      const appOf = byKey(apps);
      const offerOf = byKey(offers);
      return {
        success: true,
        message: UD_MSG.seasonFound,
        today,
        colleges: list.map((c) =>
          presentSeasonCollege(
            c,
            appOf.get(c.college_key) ?? null,
            offerOf.get(c.college_key) ?? null,
            // Recommenders name their college by the list's name (the key when it left the list).
            recs.filter((r) => collegeKey(r.college_name) === c.college_key),
            today,
            dl.colleges.get(c.college_key) ?? { all: [], next: null },
          ),
        ),
      };
    }),

    implement(updateApplication, async (request) => {
      const uid = requireUser(request);
      const { userId: _userId, collegeName, seen, ...fields } = request.body;
      const today = localToday();
      for (const [field, label] of Object.entries(DATE_FIELDS) as Array<[keyof typeof DATE_FIELDS, string]>) {
        const d = fields[field];
        if (d && !inSeasonRange(d, today))
          throw new AppError('VALIDATION_ERROR', UD_MSG.dateOutOfRange(label));
      }
      if (fields.portalUrl) {
        const url = URL.canParse(fields.portalUrl) ? new URL(fields.portalUrl) : null;
        if (!url) throw new AppError('VALIDATION_ERROR', INPUT_MSG.portalUrl);
        if (url.username || url.password) throw new AppError('VALIDATION_ERROR', UD_MSG.portalPassword);
      }
      const college = await requireListedCollege(deps, uid, collegeName);
      const names = new Map(
        (await colleges.listCollegeNames(uid)).map((c) => [c.college_key, c.college_name]),
      );
      const change: ApplicationChange = fields;
      await season.changeApplication(uid, college.college_key, change, (before, others) => {
        if (seen) {
          // A change made offline: refused when what it changes was changed elsewhere meanwhile (to
          // something else than this change sets).
          const now = presentApplication(before);
          const moved = (Object.keys(seen) as Array<keyof typeof seen>).filter(
            (k) => seen[k] !== now[k] && fields[k] !== now[k],
          );
          if (moved.length) throw new AppError('STALE_ITEM', UD_MSG.applicationChanged(describe(now, moved)));
        }
        const status = fields.status;
        if (!status || status === before?.status) return;
        const was = (before?.status ?? 'researching') as ApplicationStatus;
        if ((status === 'enrolled' || status === 'declined') && !canAnswer(was))
          throw new AppError('CONFLICT', UD_MSG.answerNeedsAdmission);
        const enrolled = others.find((o) => o.status === 'enrolled' && names.has(o.college_key));
        if (status === 'enrolled' && enrolled)
          throw new AppError('CONFLICT', UD_MSG.oneEnrollment(names.get(enrolled.college_key)!));
      });
      return { success: true, message: UD_MSG.applicationSaved, data: await seasonCollege(uid, collegeName) };
    }),

    implement(saveAidOffer, async (request) => {
      const uid = requireUser(request);
      const { collegeName, offer } = request.body;
      const grants = offer.grants.map((g) => ({
        name: g.name.replace(/\s+/g, ' ').trim(),
        amount: g.amount,
      }));
      if (grants.some((g) => !g.name)) throw new AppError('VALIDATION_ERROR', UD_MSG.aidLineNameBlank);
      const clean = { ...offer, grants };
      const figures = aidOfferFigures(clean);
      if (offer.costOfAttendance !== null && figures.grants > offer.costOfAttendance)
        throw new AppError(
          'VALIDATION_ERROR',
          UD_MSG.grantsOverCost(money(figures.grants), money(offer.costOfAttendance)),
        );
      const college = await requireListedCollege(deps, uid, collegeName);
      await season.saveAidOffer(uid, college.college_key, clean);
      return { success: true, message: UD_MSG.aidOfferSaved, data: await seasonCollege(uid, collegeName) };
    }),

    implement(removeAidOffer, async (request) => {
      const uid = requireUser(request);
      const college = await requireListedCollege(deps, uid, request.body.collegeName);
      if (!(await season.removeAidOffer(uid, college.college_key)))
        throw new AppError('NOT_FOUND', UD_MSG.aidOfferNotFound);
      return {
        success: true,
        message: UD_MSG.aidOfferRemoved,
        data: await seasonCollege(uid, request.body.collegeName),
      };
    }),
  ];
}
