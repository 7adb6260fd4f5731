import type { ReactNode } from 'react';

export type BannerKind = 'success' | 'error' | 'info' | 'warning';

/** What the last action came to, said to the student; null when there is nothing to say. */
export type Banner = { kind: 'success' | 'error'; text: string } | null;
export /**
 * The one status banner: styled `banner <kind>`, an error announced at once (role="alert"), anything else
 * politely (role="status"). `role` overrides that, for a warning that must interrupt.
 */
function StatusBanner({
  kind,
  children,
  as: Tag = 'p',
  className,
  role,
}: {
  kind: BannerKind;
  children: ReactNode;
  /** A div where the banner holds blocks (a list, several paragraphs). */
  as?: 'p' | 'div';
  className?: string;
  role?: 'alert' | 'status';
}) {
  return (
    <Tag
      className={['banner', kind, className].filter(Boolean).join(' ')}
      role={role ?? (kind === 'error' ? 'alert' : 'status')}
    >
      {children}
    </Tag>
  );
}

/** The banner of the last action, or nothing. */
export function ActionBanner({
  banner,
  as,
  className,
}: {
  banner: Banner;
  as?: 'p' | 'div';
  className?: string;
}) {
  if (!banner) return null;
  return (
    <StatusBanner kind={banner.kind} as={as} className={className}>
      {banner.text}
    </StatusBanner>
  );
}
