/**
 * Plain constants and helpers with no schema library, safe for the browser bundle
 * (import from `@ct/contracts/constants`).
 */

/** The five net-price bands, in the order the spec lists them. */
export const NET_PRICE_BANDS = [
  { key: 'netPrice0to30000', label: '0-30000' },
  { key: 'netPrice30001to48000', label: '30001-48000' },
  { key: 'netPrice48001to75000', label: '48001-75000' },
  { key: 'netPrice75001to110000', label: '75001-110000' },
  { key: 'netPrice110001plus', label: '110001+' },
] as const;
export type NetPriceKey = (typeof NET_PRICE_BANDS)[number]['key'];

/** Which direction is better when comparing two colleges (spec "Comparison direction"). */
export const COMPARE_METRICS = [
  { label: 'Undergrad Size', path: 'schoolSize', better: 'higher', kind: 'count' },
  { label: 'Grad Size', path: 'schoolGradSize', better: 'higher', kind: 'count' },
  { label: 'Admission Rate', path: 'admissionRate', better: 'lower', kind: 'percent' },
  { label: 'Student-Faculty Ratio', path: 'studentFacRatio', better: 'lower', kind: 'ratio' },
  { label: 'Cost of Attendance', path: 'finance.costAttendance', better: 'lower', kind: 'money' },
  { label: 'In-State Tuition', path: 'finance.inStateTuition', better: 'lower', kind: 'money' },
  { label: 'Out-of-State Tuition', path: 'finance.outOfStateTuition', better: 'lower', kind: 'money' },
  { label: 'Median Earnings', path: 'finance.medianEarnings', better: 'higher', kind: 'money' },
  { label: 'Average Family Income', path: 'finance.avgFamilyIncome', better: 'higher', kind: 'money' },
  { label: 'Median Family Income', path: 'finance.medianFamilyIncome', better: 'higher', kind: 'money' },
  { label: 'FAFSA Applications', path: 'finance.fafsaApplications', better: 'higher', kind: 'count' },
  { label: 'Grants/Loans', path: 'finance.studentsGrantsOrLoans', better: 'lower', kind: 'count' },
  { label: 'Net Price 0-30000', path: 'finance.netPrice0to30000', better: 'lower', kind: 'money' },
  { label: 'Net Price 30001-48000', path: 'finance.netPrice30001to48000', better: 'lower', kind: 'money' },
  { label: 'Net Price 48001-75000', path: 'finance.netPrice48001to75000', better: 'lower', kind: 'money' },
  { label: 'Net Price 75001-110000', path: 'finance.netPrice75001to110000', better: 'lower', kind: 'money' },
  { label: 'Net Price 110001+', path: 'finance.netPrice110001plus', better: 'lower', kind: 'money' },
  { label: 'Graduation Rate', path: 'graduationRate', better: 'higher', kind: 'percent' },
] as const;

/**
 * Normalise a college name (or a major, or any name typed for matching): case-, accent- and
 * punctuation-insensitive, `&` reads as `and`, so "Pre-Med" and "pre med" compare equal.
 */
export function normaliseCollegeName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .replace(/\s+/g, ' ');
}

/** pg_trgm's trigrams of a normalised text: each word padded with two spaces before and one after. */
export function trigrams(text: string): string[] {
  const out = new Set<string>();
  for (const word of text.split(' ')) {
    if (!word) continue;
    const padded = `  ${word} `;
    for (let i = 0; i + 3 <= padded.length; i++) out.add(padded.slice(i, i + 3));
  }
  return [...out];
}
