import { describe, expect, it } from 'vitest';
import { applyListView, readListView, type ListFacts, type ListView } from './listView';

type Row = { name: string } & ListFacts;
const rows: Row[] = [
  { name: 'Colby College', status: 'submitted', fit: 'likely', nextDate: null },
  { name: 'Bates College', status: 'researching', fit: null, nextDate: '2027-01-15' },
  { name: 'Université Laval', status: 'applying', fit: 'reach', nextDate: '2027-02-01' },
  { name: 'Amherst College', status: 'researching', fit: 'target', nextDate: '2027-01-05' },
  { name: 'Dickinson College', fit: 'not enough data' },
];
const view = (v: Partial<ListView>): ListView => ({ q: '', status: '', sort: 'list', ...v });
const names = (v: Partial<ListView>) =>
  applyListView(
    rows,
    view(v),
    (r) => r.name,
    (r) => r,
  ).map((r) => r.name);

describe('the list view', () => {
  it('sorts by fit, reach first, colleges whose fit is not known last in list order', () => {
    expect(names({ sort: 'fit' })).toEqual([
      'Université Laval',
      'Amherst College',
      'Colby College',
      'Dickinson College',
      'Bates College',
    ]);
  });

  it('sorts by next deadline, soonest first, undated last; by status in the season order', () => {
    expect(names({ sort: 'deadline' })).toEqual([
      'Amherst College',
      'Bates College',
      'Université Laval',
      'Colby College',
      'Dickinson College',
    ]);
    expect(names({ sort: 'status' })).toEqual([
      'Bates College',
      'Amherst College',
      'Université Laval',
      'Colby College',
      'Dickinson College',
    ]);
  });

  it('filters by any part of the name, ignoring case and accents, and by status', () => {
    expect(names({ q: 'UNIVERSITE' })).toEqual(['Université Laval']);
    expect(names({ q: 'college', status: 'researching', sort: 'name' })).toEqual([
      'Amherst College',
      'Bates College',
    ]);
  });

  it('reads unknown choices in the URL as no choice', () => {
    expect(readListView(new URLSearchParams('sort=size&status=won&q=ba'))).toEqual(view({ q: 'ba' }));
    expect(readListView(new URLSearchParams('sort=fit&status=submitted'))).toEqual(
      view({ sort: 'fit', status: 'submitted' }),
    );
  });
});
