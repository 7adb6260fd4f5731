import type { ReactNode } from 'react';
import { linkWords, safeUrl } from '../lib/format';

/**
 * A link to another site, read as words ("Net price calculator ↗", "Admission at colby.edu ↗"), opening in
 * a new tab and saying so to screen readers. Without children it names itself from its address
 * (`linkWords`); an address that is not http(s) is shown as plain text, never as a link.
 */
export function ExternalLink({
  href,
  children,
  className,
}: {
  href: string | null | undefined;
  children?: ReactNode;
  className?: string;
}) {
  const safe = safeUrl(href);
  if (!safe) return <>{children ?? href ?? null}</>;
  return (
    <a
      href={safe}
      target="_blank"
      rel="noopener noreferrer"
      className={className ? `external-link ${className}` : 'external-link'}
    >
      {children ?? linkWords(safe)}
      <span aria-hidden="true"> ↗</span>
      <span className="visually-hidden"> (opens in a new tab)</span>
    </a>
  );
}

/**
 * Addresses inside a sentence, e.g. in a checklist item: with a scheme, starting with www., or a bare host
 * followed by a path ("financialaid.stanford.edu/undergrad/..."); trailing punctuation stays text.
 */
const URL_IN_TEXT =
  /(?:\bhttps?:\/\/|\bwww\.|\b[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}\/)[^\s<>"]*[^\s<>".,;:!?)\]]/gi;

/** Text with every address in it turned into an ExternalLink that reads as words. */
export function TextWithLinks({ text }: { text: string }) {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const m of text.matchAll(URL_IN_TEXT)) {
    const at = m.index ?? 0;
    if (at > last) parts.push(text.slice(last, at));
    parts.push(<ExternalLink key={at} href={m[0]} />);
    last = at + m[0].length;
  }
  if (!parts.length) return <>{text}</>;
  if (last < text.length) parts.push(text.slice(last));
  return <>{parts}</>;
}
