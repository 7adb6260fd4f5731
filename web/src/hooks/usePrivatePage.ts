import { useEffect } from 'react';

/** Keeps the page out of search engines and its address out of referrers while it is shown. */
export function usePrivatePage() {
  useEffect(() => {
    const made = [
      ['robots', 'noindex, nofollow'],
      ['referrer', 'no-referrer'],
    ].map(([name, content]) => {
      const el = document.createElement('meta');
      el.name = name!;
      el.content = content!;
      document.head.appendChild(el);
      return el;
    });
    return () => made.forEach((el) => el.remove());
  }, []);
}
