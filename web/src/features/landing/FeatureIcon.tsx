// Line icons drawn inline: emoji depend on the visitor's fonts (a machine without an emoji font shows
// empty boxes), and an icon font would add a download.

export type IconName = 'search' | 'calendar' | 'cap' | 'pen' | 'check' | 'chart' | 'list';

const PATHS: Record<IconName, string[]> = {
  search: ['M10.5 4a6.5 6.5 0 1 0 0 13a6.5 6.5 0 1 0 0-13z', 'M15.5 15.5L21 21'],
  calendar: ['M4 6h16v14H4z', 'M4 10h16', 'M8 3v5', 'M16 3v5', 'M8 14h3v3H8z'],
  cap: ['M2 9l10-5l10 5l-10 5z', 'M6 11v5c0 1.5 3 3 6 3s6-1.5 6-3v-5', 'M22 9v6'],
  pen: ['M4 20l1-5L16 4l4 4L9 19z', 'M14 6l4 4', 'M4 20h16'],
  check: ['M4 4h16v16H4z', 'M8 12l3 3l5-6'],
  chart: ['M4 20h16', 'M7 20V12', 'M12 20V6', 'M17 20v-9'],
  list: ['M9 6h11', 'M9 12h11', 'M9 18h11', 'M4 5l1 1l2-2', 'M4 11l1 1l2-2', 'M4 17l1 1l2-2'],
};

/** A decorative 24×24 line icon in the current text colour (hidden from assistive technology). */
export function FeatureIcon({ name, size = 40 }: { name: IconName; size?: number }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {PATHS[name].map((d) => (
        <path key={d} d={d} />
      ))}
    </svg>
  );
}
