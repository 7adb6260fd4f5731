import { createContext, useContext } from 'react';

/**
 * The college a card's named sections belong to, where several cards share a page (Compare): each
 * section's name then says whose it is ("Deadlines — Bowdoin College"), so no two landmarks of the page
 * have the same name. Null on a page with one card: the names stay as they are.
 */
export const RegionOwner = createContext<string | null>(null);

/** " — <college>" for screen readers after a section's title, when the card says whose it is. */
export function OwnerSuffix() {
  const owner = useContext(RegionOwner);
  return owner ? <span className="visually-hidden"> — {owner}</span> : null;
}
