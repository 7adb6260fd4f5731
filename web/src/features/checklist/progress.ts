import type { Checklist, ChecklistItem } from '@ct/contracts';
import { MSG } from '@ct/contracts/messages';

/** A deadline item (type and date from the college's data) rather than a task the student wrote. */
export function isDeadlineItem(item: ChecklistItem): item is Extract<ChecklistItem, { type: string }> {
  return 'type' in item;
}

export type ProgressLevel = 'low' | 'half' | 'done';

export interface Progress {
  /** Rounded percent of completed items. */
  percent: number;
  message: string;
  /** The bar's colour changes at 50 and at 100. */
  level: ProgressLevel;
  done: number;
  total: number;
}

/** Spec section 9: the rounded percents where progress is half-way and done. */
const PROGRESS_THRESHOLDS = [50, 100] as const;

/** Spec "Progress": rounded percent; "Congratulations!" at 100, "Let's get started!" at 0. */
export function checklistProgress(checklist: Checklist | null | undefined): Progress {
  const items = Object.values(checklist ?? {}).flat();
  const done = items.filter((i) => i.completed === true).length;
  const percent = items.length ? Math.round((done / items.length) * 100) : 0;
  const full = PROGRESS_THRESHOLDS[1];
  const message = percent >= full ? MSG.progressDone : percent === 0 ? MSG.progressZero : MSG.progressSome;
  return { percent, message, level: progressLevel(percent), done, total: items.length };
}

/** The colour level of a rounded percent done: it changes at 50 and at 100, the same on every screen. */
export function progressLevel(percent: number): ProgressLevel {
  const [half, full] = PROGRESS_THRESHOLDS;
  return percent >= full ? 'done' : percent >= half ? 'half' : 'low';
}

/** "financialAid" → "Financial Aid": camelCase keys shown with spaces and capitalised. */
export function sectionTitle(key: string): string {
  const spaced = key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2');
  return spaced
    .split(' ')
    .map((w) => (w ? w[0]!.toUpperCase() + w.slice(1) : w))
    .join(' ');
}

/** A deep copy for edit mode: the edits never touch the shown checklist until saved. */
export function copyChecklist(c: Checklist): Checklist {
  return Object.fromEntries(Object.entries(c).map(([k, items]) => [k, items.map((i) => ({ ...i }))]));
}

/** What the server checks before applying a single-item toggle: a task's text, a deadline's type. */
export function itemGuard(item: ChecklistItem): string {
  return isDeadlineItem(item) ? item.type : item.text;
}
