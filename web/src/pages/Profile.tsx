import { AccountSection } from '../features/account/AccountSection';
import { DeadlinesCalendar } from '../features/calendar/DeadlinesCalendar';
import { AcademicProfilePanel } from '../features/fit';
import { MoneyProfilePanel } from '../features/money/MoneyProfilePanel';
import { NotesPanel } from '../features/notes/NotesPanel';
import { InstallHint } from '../pwa/InstallHint';
import { RemindersPanel } from '../features/reminders/RemindersPanel';
import { YourDataSection } from '../features/notes/YourDataSection';
import { ShareLinksPanel } from '../features/share/ShareLinksPanel';
import { usePageMeta } from '../hooks/usePageMeta';

/** Profile: account (identity work), deadlines calendar and notes (user-data work). */
export default function ProfilePage() {
  usePageMeta('Profile', 'Your account, your costs, your deadlines calendar and your notes.');
  return (
    <section className="page profile-page">
      <h1>Profile</h1>
      <AccountSection />
      <InstallHint />
      <RemindersPanel />
      <MoneyProfilePanel />
      <AcademicProfilePanel />
      <DeadlinesCalendar />
      <NotesPanel />
      <ShareLinksPanel />
      <YourDataSection />
    </section>
  );
}
