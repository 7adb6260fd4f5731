/**
 * Imported first by main.tsx, so that it runs before React loads: draws the last screen this device kept
 * of the page being opened (last-screen.ts), and says whose it is.
 */
import { paintLastScreen } from './last-screen';

/** The uid of the student whose kept screen is on show, or null when none is. */
export const lastScreenOf: string | null = paintLastScreen();
