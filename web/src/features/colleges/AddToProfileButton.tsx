import { normaliseCollegeName } from '@ct/contracts/constants';
import { MSG } from '@ct/contracts/messages';
import { TIMINGS } from '../../lib/timings';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../api/client';
import { useAddCollege, useUserColleges } from '../../api/student';
import { useSession } from '../../auth/session';
import { ActionBanner, type Banner } from '../../components/StatusBanner';

/**
 * Adds a college to the student's list (POST /add-user-college). Success shows
 * "College successfully added to your profile!" (or that a removed one came back with its progress) for
 * 3 s; a failure shows the server's message. The list, deadlines and essay prompts refresh as after any
 * change to the list. A college already on the list says so instead ("In your list"), with a link to it
 * on the dashboard.
 */
export function AddToProfileButton({ collegeName }: { collegeName: string }) {
  const { user } = useSession();
  const addCollege = useAddCollege();
  const mine = useUserColleges();
  const key = normaliseCollegeName(collegeName);
  const listed = !!user && !!mine.data?.some((c) => normaliseCollegeName(c.collegeName) === key);
  const [banner, setBanner] = useState<Banner>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const add = async () => {
    clearTimeout(timer.current);
    setBanner(null);
    if (!user) {
      setBanner({ kind: 'error', text: MSG.userNotAuthenticated });
      return;
    }
    try {
      const reply = await addCollege.mutateAsync(collegeName);
      // One removed in the last 30 days comes back with its checklist progress, and says so.
      setBanner({ kind: 'success', text: reply.restored ? reply.message : MSG.collegeAdded });
      timer.current = setTimeout(() => setBanner(null), TIMINGS.addCollegeBannerMs);
    } catch (err) {
      setBanner({ kind: 'error', text: errorMessage(err) });
    }
  };

  return (
    <div className="add-to-profile">
      {listed ? (
        <p className="in-your-list">
          <span aria-hidden="true">✓ </span>In your list:{' '}
          <Link to={`/usercolleges?college=${encodeURIComponent(collegeName)}`}>
            see it on your dashboard
          </Link>
        </p>
      ) : (
        <button type="button" onClick={() => void add()} disabled={addCollege.isPending}>
          {addCollege.isPending ? 'Adding...' : 'Add to Profile'}
        </button>
      )}
      <ActionBanner banner={banner} as="div" />
    </div>
  );
}
