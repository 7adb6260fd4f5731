import { useState } from 'react';
import type { FaqItem } from './content';

/** Expandable questions; each opens and closes on its own, and all start closed. */
export function FaqList({ items }: { items: FaqItem[] }) {
  const [open, setOpen] = useState<ReadonlySet<number>>(() => new Set());
  const toggle = (i: number) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (next.has(i)) next.delete(i);
      else next.add(i);
      return next;
    });
  return (
    <ul className="about-faq">
      {items.map((item, i) => {
        const isOpen = open.has(i);
        return (
          <li key={item.question}>
            <h3>
              <button
                type="button"
                id={`faq-q-${i}`}
                aria-expanded={isOpen}
                aria-controls={`faq-a-${i}`}
                onClick={() => toggle(i)}
              >
                <span>{item.question}</span>
                <span aria-hidden="true" className="about-faq-sign">
                  {isOpen ? '−' : '+'}
                </span>
              </button>
            </h3>
            {/* No role="region": nine of them at once would flood the landmarks list. */}
            <div id={`faq-a-${i}`} className="about-faq-answer" hidden={!isOpen}>
              <p>{item.answer}</p>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
