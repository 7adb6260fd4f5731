import { describe, expect, it } from 'vitest';
import { loginFor, safeNext } from './next';

const ORIGIN = 'https://collegeready.example';

describe('safeNext', () => {
  it('keeps a path of this site, with its query and hash', () => {
    expect(safeNext('/profile', ORIGIN)).toBe('/profile');
    expect(safeNext('/usercolleges?college=Colby%20College#checklist', ORIGIN)).toBe(
      '/usercolleges?college=Colby%20College#checklist',
    );
  });

  it.each([
    ['another origin', 'https://evil.example/profile'],
    ['a protocol-relative address', '//evil.example/profile'],
    ['a backslash trick', '/\\evil.example'],
    ['a script', 'javascript:alert(1)'],
    ['a relative path', 'profile'],
    ['the login page itself', '/login?next=/profile'],
    ['nothing', ''],
  ])('refuses %s', (_what, raw) => {
    expect(safeNext(raw, ORIGIN)).toBeNull();
  });

  it('builds the login address that comes back', () => {
    expect(loginFor('/profile')).toBe('/login?next=%2Fprofile');
    expect(loginFor('/')).toBe('/login');
    expect(
      safeNext(decodeURIComponent(loginFor('/search?q=Colby').slice('/login?next='.length)), ORIGIN),
    ).toBe('/search?q=Colby');
  });
});
