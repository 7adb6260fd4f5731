import { describe, expect, it } from 'vitest';
import { fitLabel, markerCandidates } from './marker';

describe('calendar marker labels', () => {
  it('names a college by the words that tell it apart, then by the short names students use', () => {
    expect(markerCandidates('University of Michigan-Ann Arbor', 'college')).toEqual([
      'Michigan',
      'UMich Ann Arbor',
      'UMich',
      'UM',
    ]);
    expect(markerCandidates('University of Massachusetts-Amherst', 'college')).toEqual([
      'Massachusetts',
      'UMass Amherst',
      'UMass',
      'UM',
    ]);
    expect(markerCandidates('Colby College', 'college')).toEqual(['Colby', 'CC']);
    expect(markerCandidates('The College of New Jersey', 'college')).toEqual(['New Jersey', 'TCNJ']);
    expect(markerCandidates('College of William and Mary', 'college')[0]).toBe('William and Mary');
    expect(markerCandidates('University of California-Berkeley', 'college')[0]).toBe('UC Berkeley');
  });

  it('never shortens a name into another college or a piece of a word', () => {
    // Ohio State is not Ohio University; MIT is not UMass; Colby-Sawyer is not Colby.
    expect(markerCandidates('Ohio State University-Main Campus', 'college')).toEqual(['Ohio State', 'OSU']);
    expect(markerCandidates('Pennsylvania State University-Main Campus', 'college')).toContain('Penn State');
    expect(markerCandidates('Massachusetts Institute of Technology', 'college')).not.toContain(
      'Massachusetts',
    );
    expect(markerCandidates('Massachusetts Institute of Technology', 'college')[0]).toBe('MIT');
    expect(markerCandidates('Colby-Sawyer College', 'college')[0]).toBe('Colby-Sawyer');
    for (const name of ['University of Massachusetts-Amherst', 'Stanford University', 'Bowdoin College'])
      for (const label of markerCandidates(name, 'college'))
        for (const word of label.split(' '))
          expect(name.includes(word) || /^[A-Z]+$|^U[A-Z][a-z]+$/.test(word), `${name}: ${label}`).toBe(true);
  });

  it('keeps a note title and an aid form as they are, then their first words, then any word', () => {
    expect(markerCandidates('Essay plan', 'note')).toEqual(['Essay plan', 'Essay', 'plan']);
    expect(markerCandidates('FAFSA', 'aid')).toEqual(['FAFSA']);
  });

  it('picks the first label whose every word fits whole, on at most two lines', () => {
    const chars = (t: string) => t.length * 6; // 6 px per character
    const umass = markerCandidates('University of Massachusetts-Amherst', 'college');
    expect(fitLabel(umass, 100, chars)).toBe('Massachusetts'); // 78 px
    expect(fitLabel(umass, 60, chars)).toBe('UMass Amherst'); // two lines of 30 and 42 px
    expect(fitLabel(umass, 40, chars)).toBe('UMass');
    expect(fitLabel(['Ann Arbor Michigan'], 40, chars)).toBeNull(); // three lines
    expect(fitLabel(['Massachusetts'], 40, chars)).toBeNull(); // a word never breaks
  });
});
