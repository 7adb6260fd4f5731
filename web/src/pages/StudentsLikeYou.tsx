import { StudentsLikeYou } from '../features/outcomes/StudentsLikeYou';
import { usePageMeta } from '../hooks/usePageMeta';

/** Students like you: how students in the reader's situation finish at each college of their list. */
export default function StudentsLikeYouPage() {
  usePageMeta('Students like you', 'How students like you finish at the colleges on your list.');
  return <StudentsLikeYou />;
}
