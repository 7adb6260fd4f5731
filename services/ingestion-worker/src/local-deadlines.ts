import { CommonAppGrid } from '@ct/providers';

/** The Common App requirements grid as the worker uses it (see CommonAppGrid in @ct/providers). */
export type LocalDeadlines = CommonAppGrid;

/**
 * The Common App requirements grid the worker takes deadlines and requirements from when the college's
 * own pages give none: the grid shipped with the product (matched to Scorecard UNITIDs), an operator's
 * newer file of the same shape (a path in LOCAL_DEADLINES_FILE), or none at all ("none"). Nothing is read
 * from outside the product's own files unless an operator says so.
 */
export async function loadLocalDeadlines(
  setting: string | undefined,
): Promise<{ grid: LocalDeadlines | null; problem: string | null }> {
  if (setting === 'none') return { grid: null, problem: null };
  try {
    return { grid: setting ? CommonAppGrid.fromFile(setting) : await CommonAppGrid.shipped(), problem: null };
  } catch (err) {
    return { grid: null, problem: err instanceof Error ? err.message : String(err) };
  }
}
