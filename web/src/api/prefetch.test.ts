import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { markFresh, prefetchAhead, refetchOnMount, trackAhead } from './prefetch';

function client() {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnMount } } });
  trackAhead(qc);
  let calls = 0;
  const options = {
    queryKey: ['season', 'u1'] as const,
    queryFn: async () => {
      calls += 1;
      await new Promise((r) => setTimeout(r, 5));
      return { answer: calls };
    },
  };
  const mount = () => new QueryObserver(qc, options).subscribe(() => {});
  return { qc, options, mount, calls: () => calls };
}
const settle = () => new Promise((r) => setTimeout(r, 30));

describe('data asked for ahead of its view', () => {
  it('is not asked for again when the view mounts, and is read again when the view comes back', async () => {
    const { qc, options, mount, calls } = client();
    prefetchAhead(qc, options);
    prefetchAhead(qc, options); // under way: not asked twice
    await settle();
    expect(calls()).toBe(1);
    const leave = mount();
    await settle();
    expect(calls()).toBe(1);
    leave();
    // The view came back: its stale data is read again, as for any query.
    const leaveAgain = mount();
    await settle();
    expect(calls()).toBe(2);
    leaveAgain();
  });

  it('counts as used by a view that mounted while the answer was on its way', async () => {
    const { qc, options, mount, calls } = client();
    prefetchAhead(qc, options);
    const leave = mount();
    await settle();
    expect(calls()).toBe(1);
    leave();
    const leaveAgain = mount();
    await settle();
    expect(calls()).toBe(2);
    leaveAgain();
  });

  it('leaves other queries as React Query has them: stale data refetches on mount', async () => {
    const { qc, options, mount, calls } = client();
    await qc.prefetchQuery(options);
    const leave = mount();
    await settle();
    expect(calls()).toBe(2);
    leave();
  });

  it('is not asked for again when it came with another answer (markFresh), and is read again after', async () => {
    const { qc, options, mount, calls } = client();
    markFresh(qc, options.queryKey, { answer: 0 });
    const leave = mount();
    await settle();
    expect(calls()).toBe(0);
    expect(qc.getQueryData(options.queryKey)).toEqual({ answer: 0 });
    leave();
    const leaveAgain = mount();
    await settle();
    expect(calls()).toBe(1);
    leaveAgain();
  });
});
