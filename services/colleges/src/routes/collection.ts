import { getCollectionStats } from '@ct/contracts';
import { implement, type Implementation } from '@ct/service-kit';
import { MAJORS } from '../majors/majors.ts';
import { COLLEGES_MSG } from '../messages.ts';
import type { CollegeRepository } from '../repositories/colleges.ts';

/** The count is read at most this often: the About page is public, and the number moves slowly. */
const COUNT_FOR_MS = 60_000;

/** The size of the collection (About page counters): shared colleges and the product's majors. */
export function collectionRoutes(colleges: CollegeRepository): Implementation[] {
  let cached: { n: number; at: number } | null = null;
  return [
    implement(getCollectionStats, async () => {
      if (!cached || Date.now() - cached.at > COUNT_FOR_MS)
        cached = { n: await colleges.countColleges(), at: Date.now() };
      return {
        success: true as const,
        message: COLLEGES_MSG.collectionStatsFound,
        colleges: cached.n,
        majors: MAJORS.length,
      };
    }),
  ];
}
