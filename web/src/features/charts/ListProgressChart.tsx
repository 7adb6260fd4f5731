import type { UserCollege } from '@ct/contracts';
import { useQueries, useQueryClient } from '@tanstack/react-query';
import { checklistQuery } from '../checklist/api';
import { checklistProgress } from '../checklist/progress';
import { useUid } from '../../api/keys';
import { BarList } from './BarList';

/**
 * Checklist progress across the student's list: one bar per college, in list order, the percent done
 * beside it. It reads each checklist under the same query key the checklist panel uses, so a tick moves
 * its bar at once. For the dashboard sidebar, and for an overview of the whole list.
 */
export default function ListProgressChart({ colleges }: { colleges: readonly UserCollege[] }) {
  const uid = useUid();
  const qc = useQueryClient();
  const checklists = useQueries({
    queries: colleges.map((c) => ({
      ...checklistQuery(qc, uid, c.collegeName),
      enabled: !!uid,
      staleTime: 60_000,
    })),
  });
  if (!colleges.length) return null;
  return (
    <BarList
      caption="Checklist progress"
      bars={colleges.map((c, i) => {
        const q = checklists[i]!;
        const p = q.data ? checklistProgress(q.data) : null;
        return {
          key: c.collegeId,
          label: c.collegeName,
          fraction: p ? p.percent / 100 : null,
          level: p?.level,
          text: p ? `${p.percent}%` : q.isError ? 'Not loaded' : '…',
        };
      })}
    />
  );
}
