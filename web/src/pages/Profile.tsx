import { AccountSection } from '../features/account/AccountSection';
import { DeadlinesCalendar } from '../features/calendar/DeadlinesCalendar';
import { AcademicProfilePanel } from '../features/fit';
import { MoneyProfilePanel } from '../features/money/MoneyProfilePanel';
import { NotesPanel } from '../features/notes/NotesPanel';
import { SituationPanel } from '../features/outcomes/SituationPanel';
import { InstallHint } from '../pwa/InstallHint';
import { DigestPanel } from '../features/reminders/DigestPanel';
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
      {/* The notes come after the account, the money and academic profiles and the calendar (some 200 Tab
          stops): the first stop after the heading goes straight to a new note's first field. */}
      <a
        className="skip-link"
        href="#notes"
        onClick={(e) => {
          const panel = document.getElementById('notes');
          if (!panel) return;
          e.preventDefault();
          const first = panel.querySelector<HTMLElement>('input, textarea');
          if (first) first.focus();
          else {
            panel.tabIndex = -1;
            panel.focus();
          }
        }}
      >
        Skip to notes
      </a>
      <AccountSection />
      <InstallHint />
      <RemindersPanel />
      <DigestPanel />
      <MoneyProfilePanel />
      <SituationPanel />
      <AcademicProfilePanel />
      <DeadlinesCalendar />
      <NotesPanel />
      <ShareLinksPanel />
      <YourDataSection />
    </section>
  );
}
