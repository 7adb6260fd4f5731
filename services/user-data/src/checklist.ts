import type {
  Checklist,
  ChecklistDeadline,
  ChecklistItem,
  ChecklistTask,
  College,
  Deadline,
} from '@ct/contracts';
import { LIMITS } from '@ct/contracts';

/** The section that holds the college's deadline items. */
export const DEADLINES_SECTION = 'deadlines';

export function isDeadlineItem(item: ChecklistItem): item is ChecklistDeadline {
  return 'type' in item;
}

const task = (text: string): ChecklistTask => ({ text: clip(text), completed: false });

function clip(text: string): string {
  const t = text.replace(/\s+/g, ' ').trim();
  const max = LIMITS.checklistItemTextMax;
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

/** A requirement the college says it does not ask for ("Not required", "None", "0"). */
export function notRequired(value: string | null | undefined): boolean {
  return !!value && /^\s*(not required|none|no|0|not accepted|not considered)\s*\.?\s*$/i.test(value);
}

function deadlineItems(deadlines: readonly Deadline[]): ChecklistDeadline[] {
  return deadlines
    .filter((d) => d.type.trim())
    .map((d) => ({ type: d.type.trim().slice(0, 100), date: d.date, completed: false }));
}

/**
 * A new checklist for a college, from what the colleges service knows about it: its requirements, essay
 * prompts, price calculator and deadlines. Sections keep this order for the student.
 */
export function buildChecklist(college: College): Checklist {
  const { requirements, essayPrompts, deadlines } = college.info;
  // Requirements from the Common App grid (fee, essays, counselor) when the college is in it.
  const fee = requirements.applicationFee ?? null;
  const noFee = fee !== null && /^no application fee$/i.test(fee);
  const application: ChecklistTask[] = [
    task(`Create your application account and start the ${college.name} application`),
    task('Fill in your personal information, activities and honors'),
    ...(noFee
      ? []
      : [
          task(
            fee
              ? `Pay the application fee (${fee}) or request a fee waiver`
              : 'Pay the application fee or request a fee waiver',
          ),
        ]),
    task(
      requirements.transcripts
        ? `Send your official high school transcript (${requirements.transcripts})`
        : 'Send your official high school transcript',
    ),
    task('Review and submit your application'),
  ];
  const testing: ChecklistTask[] = [
    task(
      requirements.SAT_ACT
        ? `Check the SAT/ACT policy (${requirements.SAT_ACT}) and decide whether to send scores`
        : 'Check the SAT/ACT policy and decide whether to send scores',
    ),
    task('Send official SAT/ACT scores if you submit them'),
  ];
  // A recommendation the college says it does not require is no task: asking for it is wasted effort.
  const asks: ChecklistTask[] = [
    ...(notRequired(requirements.teacherRecommendations)
      ? []
      : [
          task(
            requirements.teacherRecommendations
              ? `Ask your teachers for recommendations (${requirements.teacherRecommendations})`
              : 'Ask your teachers for recommendations',
          ),
        ]),
    ...(notRequired(requirements.counselorRecommendation)
      ? []
      : [
          task(
            requirements.counselorRecommendation
              ? `Ask your school counselor for a counselor recommendation (${requirements.counselorRecommendation})`
              : 'Ask your school counselor for a counselor recommendation',
          ),
        ]),
  ];
  const recommendations = asks.length ? [...asks, task('Thank your recommenders')] : [];
  const essays: ChecklistTask[] = [
    ...essayPrompts.slice(0, 12).map((p) => task(`Write your essay: ${p}`)),
    ...(essayPrompts.length
      ? []
      : [
          task(
            requirements.personalEssay
              ? `Write your personal statement (Common App essay: ${requirements.personalEssay.toLowerCase()})`
              : 'Write your personal statement',
          ),
        ]),
    ...(requirements.writingSupplement && !essayPrompts.length
      ? [
          task(
            `Answer the ${college.name} writing supplement in its application (${requirements.writingSupplement.toLowerCase()})`,
          ),
        ]
      : []),
    task('Proofread your essays and ask someone you trust to read them'),
  ];
  const financialAid: ChecklistTask[] = [
    task('Submit the FAFSA'),
    task(
      college.demographics.priceCalcUrl
        ? `Estimate your cost with the net price calculator: ${college.demographics.priceCalcUrl}`
        : 'Estimate your cost with the net price calculator',
    ),
    task('Check the financial aid deadlines and any extra forms (such as the CSS Profile)'),
    task('Apply for scholarships'),
  ];
  const dl: ChecklistItem[] = deadlineItems(deadlines);
  if (!dl.length) dl.push(task("Check the application deadlines on the college's website"));
  return { application, testing, recommendations, essays, financialAid, [DEADLINES_SECTION]: dl };
}

/** Finds the previous tick of a deadline: same type and date first, then the same type. */
function previousCompleted(old: ChecklistDeadline[], d: ChecklistDeadline): boolean {
  const norm = (s: string) => s.trim().toLowerCase();
  const exact = old.find((o) => norm(o.type) === norm(d.type) && o.date === d.date);
  const sameType = exact ?? old.find((o) => norm(o.type) === norm(d.type));
  return sameType?.completed ?? false;
}

/**
 * Replaces the college's deadline items with fresh ones, keeping the student's ticks on deadlines that
 * still exist and every task the student wrote. Returns null when nothing changes.
 */
export function refreshDeadlines(checklist: Checklist, deadlines: readonly Deadline[]): Checklist | null {
  const old = Object.values(checklist).flat().filter(isDeadlineItem);
  const fresh = deadlineItems(deadlines).map((d) => ({ ...d, completed: previousCompleted(old, d) }));
  const next: Checklist = {};
  let placed = false;
  for (const [name, items] of Object.entries(checklist)) {
    const tasks = items.filter((i) => !isDeadlineItem(i));
    if (name === DEADLINES_SECTION) {
      next[name] = [...fresh, ...tasks];
      placed = true;
    } else {
      next[name] = tasks;
    }
  }
  if (!placed) next[DEADLINES_SECTION] = fresh;
  return JSON.stringify(next) === JSON.stringify(checklist) ? null : next;
}

/**
 * A whole replace from the client, made safe: tasks are taken as sent (blank ones dropped), but deadline
 * items only keep their tick — they cannot be invented, altered or deleted by the client, so the stored
 * ones the client left out (or changed) come back.
 */
export function mergeReplace(stored: Checklist, submitted: Checklist): Checklist {
  const key = (d: ChecklistDeadline) => `${d.type}\u0000${d.date ?? ''}`;
  const storedDeadlines = new Map<string, { section: string; item: ChecklistDeadline; used: boolean }>();
  for (const [section, items] of Object.entries(stored))
    for (const item of items)
      if (isDeadlineItem(item))
        storedDeadlines.set(`${section}\u0001${key(item)}`, { section, item, used: false });

  const next: Checklist = {};
  for (const [section, items] of Object.entries(submitted)) {
    const kept: ChecklistItem[] = [];
    for (const item of items) {
      if (isDeadlineItem(item)) {
        const match = storedDeadlines.get(`${section}\u0001${key(item)}`);
        if (!match || match.used) continue;
        match.used = true;
        kept.push({ ...match.item, completed: item.completed ?? match.item.completed ?? false });
      } else if (item.text.trim()) {
        kept.push({ text: item.text.trim(), completed: item.completed });
      }
    }
    next[section] = kept;
  }
  for (const m of storedDeadlines.values()) {
    if (m.used) continue;
    (next[m.section] ??= []).push(m.item);
  }
  return next;
}

/** Why a single-item toggle was refused. */
export type ToggleRefusal = 'stale';

/**
 * Sets one item's tick. The item must still be at that index and, when the client says what it saw there
 * (`itemText`: a task's text or a deadline's type), still be that item.
 */
export function toggleItem(
  checklist: Checklist,
  section: string,
  itemIndex: number,
  completed: boolean,
  itemText?: string,
): Checklist | ToggleRefusal {
  const items = Object.hasOwn(checklist, section) ? checklist[section] : undefined;
  const item = items?.[itemIndex];
  if (!items || !item) return 'stale';
  if (itemText !== undefined) {
    const seen = isDeadlineItem(item) ? item.type : item.text;
    if (seen !== itemText) return 'stale';
  }
  const nextItems = items.slice();
  nextItems[itemIndex] = { ...item, completed };
  return { ...checklist, [section]: nextItems };
}

/** The college's deadlines on a checklist that carry a real calendar date. */
export function datedDeadlines(checklist: Checklist): Array<{ type: string; date: string }> {
  return Object.values(checklist)
    .flat()
    .filter(isDeadlineItem)
    .filter(
      (d): d is ChecklistDeadline & { date: string } => typeof d.date === 'string' && isRealDate(d.date),
    )
    .map((d) => ({ type: d.type, date: d.date }));
}

/** True for a YYYY-MM-DD string naming a day that exists. */
export function isRealDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}
