import { AboutTabs } from '../features/about/AboutTabs';
import { usePageMeta } from '../hooks/usePageMeta';

/** `/about`: mission, features, how it works, FAQ, contact and donations. */
export default function AboutPage() {
  usePageMeta(
    'About',
    'Why we built a free college-application organizer, what it does, how it works, answers to common questions and how to reach us.',
  );
  return (
    <section className="page">
      <AboutTabs />
    </section>
  );
}
