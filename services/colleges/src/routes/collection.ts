import { getCollectionStats } from '@ct/contracts';
import { implement, type Implementation, type ServiceContext } from '@ct/service-kit';
import type { CollegesConfig } from '../config.ts';
import { MAJORS } from '../majors/majors.ts';
import { COLLECTION_MSG } from '../messages.ts';
import { CollegeRepository } from '../repositories/colleges.ts';

/** The count is read at most this often: the About page is public, and the number moves slowly. */
const COUNT_FOR_MS = 60_000;

/** The size of the collection (About page counters): shared colleges and the product's majors. */
export function collectionRoutes(ctx: ServiceContext<CollegesConfig>): Implementation[] {
  const colleges = new CollegeRepository(ctx.db);
  let cached: { n: number; at: number } | null = null;
  return [
    implement(getCollectionStats, async () => {
      if (!cached || Date.now() - cached.at > COUNT_FOR_MS)
        cached = { n: await colleges.countColleges(), at: Date.now() };
      return {
        success: true as const,
        message: COLLECTION_MSG.statsFound,
        colleges: cached.n,
        majors: MAJORS.length,
      };
    }),
  ];
}
