import { describe, expect, it } from 'vitest';
import { buildCollege } from '@ct/testkit';
import { buildChecklist, mergeReplace, refreshDeadlines, toggleItem } from './checklist.ts';

describe('checklist rules', () => {
  it('builds a checklist with a task when the college publishes no deadline', () => {
    const c = buildChecklist(buildCollege({ info: { deadlines: [] } }));
    expect(c.deadlines).toEqual([
      { text: "Check the application deadlines on the college's website", completed: false },
    ]);
  });

  it('turns the Common App grid requirements into tasks', () => {
    const c = buildChecklist(
      buildCollege({
        name: 'Example College',
        info: {
          essayPrompts: [],
          requirements: {
            transcripts: null,
            SAT_ACT: 'Required',
            teacherRecommendations: '2 teacher evaluations required',
            applicationFee: '$85',
            personalEssay: 'Required',
            writingSupplement: 'Required',
            counselorRecommendation: 'Required, with the midyear report',
          },
        },
      }),
    );
    const texts = (section: string) => c[section]!.map((i) => ('text' in i ? i.text : i.type));
    expect(texts('application')).toContain('Pay the application fee ($85) or request a fee waiver');
    expect(texts('testing')[0]).toBe('Check the SAT/ACT policy (Required) and decide whether to send scores');
    expect(texts('recommendations')).toEqual([
      'Ask your teachers for recommendations (2 teacher evaluations required)',
      'Ask your school counselor for a counselor recommendation (Required, with the midyear report)',
      'Thank your recommenders',
    ]);
    expect(texts('essays')).toEqual([
      'Write your personal statement (Common App essay: required)',
      'Answer the Example College writing supplement in its application (required)',
      'Proofread your essays and ask someone you trust to read them',
    ]);
    const free = buildChecklist(
      buildCollege({
        info: {
          requirements: {
            transcripts: null,
            SAT_ACT: null,
            teacherRecommendations: null,
            applicationFee: 'No application fee',
          },
        },
      }),
    );
    expect(free.application!.map((i) => ('text' in i ? i.text : ''))).not.toContainEqual(
      expect.stringMatching(/application fee/),
    );
  });

  it('makes no task of a recommendation the college does not require (issue 34)', () => {
    const c = buildChecklist(
      buildCollege({
        info: {
          requirements: { teacherRecommendations: '1 required', counselorRecommendation: 'Not required' },
        },
      }),
    );
    expect(c.recommendations!.map((t) => ('text' in t ? t.text : ''))).toEqual([
      'Ask your teachers for recommendations (1 required)',
      'Thank your recommenders',
    ]);
    const none = buildChecklist(
      buildCollege({
        info: { requirements: { teacherRecommendations: 'None', counselorRecommendation: 'Not required.' } },
      }),
    );
    expect(none.recommendations).toEqual([]);
  });

  it('changes nothing (and says so) when the refreshed deadlines are the same', () => {
    const c = buildChecklist(buildCollege());
    expect(refreshDeadlines(c, buildCollege().info.deadlines)).toBeNull();
  });

  it('keeps a tick when a deadline moves, and drops deadlines that are gone', () => {
    const c = buildChecklist(buildCollege());
    const ticked = toggleItem(c, 'deadlines', 0, true, 'Early Action');
    if (typeof ticked === 'string') throw new Error('refused');
    const next = refreshDeadlines(ticked, [{ type: 'early action', date: '2026-11-15' }]);
    expect(next?.deadlines).toEqual([{ type: 'early action', date: '2026-11-15', completed: true }]);
  });

  it('refuses a tick on a moved item instead of ticking its neighbour', () => {
    const c = { application: [{ text: 'B', completed: false }] };
    expect(toggleItem(c, 'application', 0, true, 'A')).toBe('stale');
    expect(toggleItem(c, 'application', 1, true)).toBe('stale');
    expect(toggleItem(c, 'constructor', 0, true)).toBe('stale');
  });

  it('puts back a deadline item a whole replace left out', () => {
    const stored = { deadlines: [{ type: 'RD', date: '2027-01-15', completed: false }] };
    expect(mergeReplace(stored, { deadlines: [] })).toEqual(stored);
  });
});
