import fs from 'node:fs';
import { rel } from './sources.ts';

/** The Node major `.ci/run` installs and runs the suite on. */
export function ciNodeMajor(): string {
  const m = /^NODE_MAJOR=(\d+)$/m.exec(fs.readFileSync(rel('.ci/run'), 'utf8'));
  if (!m) throw new Error('.ci/run sets no NODE_MAJOR');
  return m[1]!;
}
