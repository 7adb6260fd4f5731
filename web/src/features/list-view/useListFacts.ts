import type { College } from '@ct/contracts';
import { useQuery } from '@tanstack/react-query';
import { useUid } from '../../api/keys';
import { academicProfileQuery, fitOf } from '../fit';
import { seasonQuery, useCollegeDocuments } from '../season/api';
import type { ListFacts } from './listView';

/**
 * What the sidebar needs to filter and sort the list: each college's status and next date (from the
 * season, which the dashboard asks for anyway) and, only when sorting by fit, its fit band (from the
 * college's figures and the student's scores). Queries are shared with the season overview. Only while
 * `needed` (a status filter or a sort that reads them) does the page follow these answers, so the
 * dashboard is not redrawn for each of them otherwise.
 */
export function useListFacts(
  names: readonly string[],
  needed: boolean,
  needFit: boolean,
): (name: string) => ListFacts {
  const uid = useUid();
  const season = useQuery({ ...seasonQuery(uid), enabled: !!uid && needed, subscribed: needed });
  const academic =
    useQuery({ ...academicProfileQuery(uid), enabled: !!uid && needFit, subscribed: needFit }).data ?? null;
  const docs = useCollegeDocuments(needFit ? names : []);
  const byName = new Map((season.data?.colleges ?? []).map((c) => [c.collegeName, c]));
  const docOf = new Map<string, College | undefined>(
    (needFit ? names : []).map((name, i) => [name, docs[i]?.data ?? undefined]),
  );
  return (name) => {
    const c = byName.get(name);
    const doc = docOf.get(name);
    return {
      status: c?.application.status,
      nextDate: c?.nextDate?.date ?? null,
      fit: doc ? fitOf(doc, academic).band : null,
    };
  };
}
