import { FIT_BANDS, type FitBand } from '@ct/contracts/fit';
import { compareIso } from '@ct/contracts/numbers';
import { APPLICATION_STATUSES, type ApplicationStatus } from '@ct/contracts/season';
import { useSearchParams } from 'react-router';

/** How a list of colleges can be ordered. */
export const LIST_SORTS = ['list', 'deadline', 'status', 'fit', 'name'] as const;
export type ListSort = (typeof LIST_SORTS)[number];

export const SORT_LABELS: Record<ListSort, string> = {
  list: 'Order added',
  deadline: 'Next deadline',
  status: 'Status',
  fit: 'Fit',
  name: 'Name',
};

/** The student's choices on a list of colleges, as the URL keeps them (`?q=&status=&sort=`). */
export interface ListView {
  q: string;
  status: ApplicationStatus | '';
  sort: ListSort;
}

/** What a list knows of one college, for filtering and sorting (any part may be unknown yet). */
export interface ListFacts {
  status?: ApplicationStatus | undefined;
  nextDate?: string | null | undefined;
  fit?: FitBand | null | undefined;
}

const isStatus = (s: string | null): s is ApplicationStatus =>
  !!s && (APPLICATION_STATUSES as readonly string[]).includes(s);
const isSort = (s: string | null): s is ListSort => !!s && (LIST_SORTS as readonly string[]).includes(s);

/** The choices in a URL's query; anything unknown reads as no choice. */
export function readListView(params: URLSearchParams): ListView {
  const status = params.get('status');
  const sort = params.get('sort');
  return {
    q: (params.get('q') ?? '').slice(0, 100),
    status: isStatus(status) ? status : '',
    sort: isSort(sort) ? sort : 'list',
  };
}

/** Whether any choice narrows or reorders the list. */
export const isFiltered = (v: ListView) => v.q.trim() !== '' || v.status !== '';

/**
 * The choices of the page's URL and a setter that writes them back into it, in place (typing a name does
 * not add a history entry per letter), so back and forward and a copied link keep them.
 */
export function useListView(): [ListView, (change: Partial<ListView>) => void] {
  const [params, setParams] = useSearchParams();
  const view = readListView(params);
  const set = (change: Partial<ListView>) =>
    setParams(
      () => {
        // The URL as it is now: react-router hands the callback the params of the last render, so two
        // changes before a render (clear the search, then pick an order) would undo the first.
        const next = new URLSearchParams(window.location.search);
        const merged = { ...readListView(next), ...change };
        if (merged.q) next.set('q', merged.q);
        else next.delete('q');
        if (merged.status) next.set('status', merged.status);
        else next.delete('status');
        if (merged.sort !== 'list') next.set('sort', merged.sort);
        else next.delete('sort');
        return next;
      },
      { replace: true },
    );
  return [view, set];
}

const rank = <T>(list: readonly T[], v: T | null | undefined) => {
  const i = v === null || v === undefined ? -1 : list.indexOf(v);
  return i < 0 ? list.length : i;
};

/**
 * A list narrowed by name (any part, case and accents ignored) and status, then sorted; ties, and
 * colleges whose sorting fact is not known yet, keep the list's order (unknown last).
 */
export function applyListView<T>(
  items: readonly T[],
  view: ListView,
  nameOf: (t: T) => string,
  factsOf: (t: T) => ListFacts,
): T[] {
  const fold = (s: string) =>
    s
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase();
  const q = fold(view.q.trim());
  const kept = items
    .map((item, i) => ({ item, i, facts: factsOf(item), name: nameOf(item) }))
    .filter((x) => (!q || fold(x.name).includes(q)) && (!view.status || x.facts.status === view.status));
  const by: Record<ListSort, (a: (typeof kept)[number], b: (typeof kept)[number]) => number> = {
    list: () => 0,
    name: (a, b) => a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }),
    status: (a, b) => rank(APPLICATION_STATUSES, a.facts.status) - rank(APPLICATION_STATUSES, b.facts.status),
    fit: (a, b) => rank(FIT_BANDS, a.facts.fit) - rank(FIT_BANDS, b.facts.fit),
    deadline: (a, b) => {
      const x = a.facts.nextDate;
      const y = b.facts.nextDate;
      if (x && y) return compareIso(x, y);
      return x ? -1 : y ? 1 : 0;
    },
  };
  return kept.sort((a, b) => by[view.sort](a, b) || a.i - b.i).map((x) => x.item);
}
