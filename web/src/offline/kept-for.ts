/**
 * How long what the device keeps of a student serves: the data it last saw (device.ts) for offline reads
 * and to paint before the network answers, and the last screen of each page (last-screen.ts).
 */
export const DEVICE_MAX_AGE_MS = 30 * 24 * 3_600_000;
