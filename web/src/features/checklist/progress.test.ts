import { describe, expect, it } from 'vitest';
import { checklistProgress, sectionTitle } from './progress';

const task = (completed: boolean) => ({ text: 't', completed });

describe('checklist progress', () => {
  it('reads "Let\'s get started!" at 0, the middle message in between and "Congratulations!" at 100', () => {
    expect(checklistProgress({ a: [task(false), task(false)] })).toMatchObject({
      percent: 0,
      message: "Let's get started!",
      level: 'low',
    });
    expect(checklistProgress({ a: [task(true), task(false), task(false)] })).toMatchObject({
      percent: 33,
      message: "Keep going, you're making progress!",
      level: 'low',
    });
    expect(checklistProgress({ a: [task(true), task(false)] })).toMatchObject({ percent: 50, level: 'half' });
    expect(
      checklistProgress({ a: [task(true)], b: [{ type: 'RD', date: null, completed: true }] }),
    ).toMatchObject({
      percent: 100,
      message: 'Congratulations!',
      level: 'done',
    });
  });

  it('rounds, and counts deadline items without a tick as not done', () => {
    const c = { a: [task(true), task(true)], deadlines: [{ type: 'EA', date: '2026-11-01' }] };
    expect(checklistProgress(c)).toMatchObject({ percent: 67, done: 2, total: 3, level: 'half' });
    expect(checklistProgress({})).toMatchObject({ percent: 0, message: "Let's get started!" });
  });

  it('shows camelCase section keys with spaces, capitalised', () => {
    expect(sectionTitle('financialAid')).toBe('Financial Aid');
    expect(sectionTitle('application')).toBe('Application');
    expect(sectionTitle('satActTesting')).toBe('Sat Act Testing');
  });
});
