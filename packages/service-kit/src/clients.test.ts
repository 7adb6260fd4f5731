// The proxy fills a route's path parameters from a path compiled once (no regular expression per
// request): what it builds must be what the per-call replacement built.
import { ROUTES } from '@ct/contracts';
import { describe, expect, it } from 'vitest';
import { buildPath, compilePath } from './clients.ts';

describe('compilePath', () => {
  it('fills every parameter as one encoded segment, and leaves a path without any as it is', () => {
    const build = compilePath('/api/shared/:token/deadlines.ics');
    expect(build({ token: 'a/b?c' })).toBe('/api/shared/a%2Fb%3Fc/deadlines.ics');
    expect(compilePath('/a/:x/b/:y')({ x: 'é', y: 2 })).toBe('/a/%C3%A9/b/2');
    expect(compilePath('/a/:x')({})).toBe('/a/');
    expect(compilePath('/api/healthz')()).toBe('/api/healthz');
  });

  it('builds what the per-call replacement built for every route of the table', () => {
    const replaced = (path: string, params: Record<string, unknown>) =>
      path.replace(/:([A-Za-z0-9_]+)/g, (_, k: string) => encodeURIComponent(String(params[k] ?? '')));
    for (const r of ROUTES) {
      const names = [...r.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
      const params = Object.fromEntries(names.map((n, i) => [n, `${n} ${i}/%`]));
      expect(compilePath(r.path)(params)).toBe(replaced(r.path, params));
      expect(buildPath(r.path, params)).toBe(replaced(r.path, params));
    }
  });
});
