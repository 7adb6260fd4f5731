// The supported Node.js: Node 20 reached its end of life in April 2026. package.json asks for 22 or newer,
// CI installs Node 24 (the current LTS) from the npm registry and runs the whole suite on it, and the
// images run the same major (tests/ops/images.test.ts).
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ciNodeMajor } from './lib/node.ts';
import { rel } from './lib/sources.ts';

const major = (v: string) => Number(v.replace(/^v/, '').split('.')[0]);

describe('Node.js version', () => {
  it('runs on Node 22 or newer, as package.json engines asks, and an older Node refuses to install', () => {
    const pkg = JSON.parse(fs.readFileSync(rel('package.json'), 'utf8')) as { engines: { node: string } };
    expect(pkg.engines.node).toBe('^22.12 || >=24');
    expect(major(process.version)).toBeGreaterThanOrEqual(22);
    // engine-strict: npm stops at once on Node 20 instead of warning and installing (issue 47.3).
    expect(fs.readFileSync(rel('.npmrc'), 'utf8')).toMatch(/^engine-strict=true$/m);
    expect(fs.readFileSync(rel('.nvmrc'), 'utf8').trim()).toBe('24');
  });

  it('CI runs Node 24, the current LTS', () => {
    expect(ciNodeMajor()).toBe('24');
    if (process.env.CI) expect(major(process.version)).toBe(24);
  });
});
