import { Landing } from '../features/landing/Landing';
import { usePageMeta } from '../hooks/usePageMeta';

/** `/`: the landing page. */
export default function HomePage() {
  usePageMeta(
    '',
    'A free college-application organizer for high-school students: find colleges, track deadlines and checklists, compare stats and read essay examples.',
  );
  return <Landing />;
}
