/**
 * The figures part of the data audit (issue 25): every institution of an official College Scorecard file,
 * fetched through the API (the admin listing, with each college's document), compared field by field with
 * the file's row. The expected value of each field is written out here from the official data dictionary,
 * independently of the product's field table (packages/providers scorecard-fields.ts), so a mapping fault
 * there shows up as a mismatch. `npm run data:audit` runs it on the shipped data with the names audit.
 */
import type { NamesApi } from './names.ts';

/** One row of the official institution file, by column (variable) name. */
export type OfficialRow = Record<string, string | undefined>;

export interface FiguresReport {
  /** Institutions of the official file */
  institutions: number;
  /** Of those, found through the API and compared */
  checked: number;
  /** Fields compared per institution */
  fields: number;
  /** Institutions of the file the API does not list */
  unreachable: Array<{ unitid: number; name: string }>;
  mismatches: Array<{ unitid: number; name: string; field: string; shown: unknown; official: unknown }>;
}

const n = (row: OfficialRow, col: string): number | null => {
  const v = row[col]?.trim();
  if (!v || !/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(v)) return null;
  return Number(v);
};
const t = (row: OfficialRow, col: string): string | null => row[col]?.trim() || null;
const series = (row: OfficialRow) => (row.CONTROL === '1' ? 'PUB' : row.CONTROL ? 'PRIV' : null);
const bySeries = (row: OfficialRow, stem: string) => {
  const s = series(row);
  return s ? n(row, `${stem}_${s}`) : null;
};

/**
 * What the card must show for each field (a path into the College document), from the official row: the
 * data dictionary's meaning of each column, and the display rules the product states (the campus's own
 * admission rate, else all campuses', flagged; cost for the academic year, else the program year;
 * completion within 150 % of time at four-year, else less-than-four-year institutions; net prices of the
 * public or private series by ownership). Nothing missing is invented: an empty cell must be null.
 */
const EXPECTED: Record<string, (row: OfficialRow) => unknown> = {
  'demographics.schoolCity': (r) => t(r, 'CITY'),
  'demographics.schoolState': (r) => t(r, 'STABBR'),
  'demographics.schoolSize': (r) => n(r, 'UGDS'),
  'demographics.schoolGradSize': (r) => n(r, 'GRADS'),
  'demographics.admissionRate': (r) => n(r, 'ADM_RATE') ?? n(r, 'ADM_RATE_ALL'),
  'demographics.admissionRateScope': (r) =>
    n(r, 'ADM_RATE') === null && n(r, 'ADM_RATE_ALL') !== null ? 'all-campuses' : undefined,
  'demographics.studentFacRatio': (r) => n(r, 'STUFACR'),
  'demographics.graduationRate': (r) => n(r, 'C150_4') ?? n(r, 'C150_L4'),
  'demographics.ownership': (r) =>
    ({ '1': 'Public', '2': 'Private nonprofit', '3': 'Private for-profit' })[r.CONTROL ?? ''] ?? null,
  'demographics.demographics.white': (r) => n(r, 'UGDS_WHITE'),
  'demographics.demographics.black': (r) => n(r, 'UGDS_BLACK'),
  'demographics.demographics.asian': (r) => n(r, 'UGDS_ASIAN'),
  'demographics.demographics.hispanic': (r) => n(r, 'UGDS_HISP'),
  'demographics.demographics.unknown': (r) => n(r, 'UGDS_UNKN'),
  'demographics.demographics.aian': (r) => n(r, 'UGDS_AIAN'),
  'demographics.demographics.nhpi': (r) => n(r, 'UGDS_NHPI'),
  'demographics.demographics.twoOrMore': (r) => n(r, 'UGDS_2MOR'),
  'demographics.demographics.nonResident': (r) => n(r, 'UGDS_NRA'),
  'demographics.finance.costAttendance': (r) => n(r, 'COSTT4_A') ?? n(r, 'COSTT4_P'),
  'demographics.finance.inStateTuition': (r) => n(r, 'TUITIONFEE_IN'),
  'demographics.finance.outOfStateTuition': (r) => n(r, 'TUITIONFEE_OUT'),
  'demographics.finance.medianEarnings': (r) => n(r, 'MD_EARN_WNE_P10'),
  'demographics.finance.avgNetPrice': (r) => bySeries(r, 'NPT4'),
  'demographics.finance.netPrice0to30000': (r) => bySeries(r, 'NPT41'),
  'demographics.finance.netPrice30001to48000': (r) => bySeries(r, 'NPT42'),
  'demographics.finance.netPrice48001to75000': (r) => bySeries(r, 'NPT43'),
  'demographics.finance.netPrice75001to110000': (r) => bySeries(r, 'NPT44'),
  'demographics.finance.netPrice110001plus': (r) => bySeries(r, 'NPT45'),
  'demographics.finance.graduationRate': (r) => n(r, 'C150_4') ?? n(r, 'C150_L4'),
  'demographics.finance.pellGrantRate': (r) => n(r, 'PCTPELL'),
  'demographics.finance.federalLoanRate': (r) => n(r, 'PCTFLOAN'),
  // The Scorecard publishes no count of students with grants or loans (D_PCTPELL_PCTFLOAN is a head
  // count of all undergraduates the shares are taken of): nothing may be shown under that label.
  'demographics.finance.studentsGrantsOrLoans': () => null,
  // The fit band's figures (issue 22): each section's middle-50 % range, never a sum, and retention.
  'demographics.admissionTests.satReading25': (r) => n(r, 'SATVR25'),
  'demographics.admissionTests.satReading75': (r) => n(r, 'SATVR75'),
  'demographics.admissionTests.satMath25': (r) => n(r, 'SATMT25'),
  'demographics.admissionTests.satMath75': (r) => n(r, 'SATMT75'),
  'demographics.admissionTests.act25': (r) => n(r, 'ACTCM25'),
  'demographics.admissionTests.act75': (r) => n(r, 'ACTCM75'),
  'demographics.retentionRate': (r) => n(r, 'RET_FT4'),
  // Completion by Pell Grant, loan and first-generation status (issue 48): each column as published.
  'demographics.outcomes.pellGraduationRate': (r) => n(r, 'C150_4_PELL'),
  'demographics.outcomes.noPellNoLoanGraduationRate': (r) => n(r, 'C150_4_NOLOANNOPELL'),
  'demographics.outcomes.pooledGraduationRate': (r) => n(r, 'C150_4_POOLED'),
  'demographics.outcomes.firstGenCompletionRate': (r) => n(r, 'FIRSTGEN_COMP_ORIG_YR4_RT'),
  'demographics.outcomes.lessThan4yrPellGraduationRate': (r) => n(r, 'C150_L4_PELL'),
  'demographics.outcomes.lessThan4yrNoPellNoLoanGraduationRate': (r) => n(r, 'C150_L4_NOLOANNOPELL'),
  'demographics.outcomes.allGraduationRate': (r) => n(r, 'C150_4'),
  'demographics.outcomes.lessThan4yrGraduationRate': (r) => n(r, 'C150_L4'),
};

/** The fields the audit compares. */
export const AUDITED_FIELDS = Object.keys(EXPECTED);

function at(doc: unknown, path: string): unknown {
  let cur = doc;
  for (const k of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[k];
  }
  return cur;
}

/** Equal as a student would read them: the same number (to float precision) or text; null and absent alike. */
function same(shown: unknown, official: unknown): boolean {
  if (official === undefined || official === null) return shown === undefined || shown === null;
  if (typeof official === 'number')
    return typeof shown === 'number' && Math.abs(shown - official) <= 1e-9 * Math.max(1, Math.abs(official));
  return shown === official;
}

/** Every stored college with a College Scorecard id, through the admin listing (full documents). */
export async function listedDocuments(api: NamesApi): Promise<Map<number, { name: string; data: unknown }>> {
  const out = new Map<number, { name: string; data: unknown }>();
  for (let offset = 0; ; offset += 200) {
    const page = await api<{
      total: number;
      colleges: Array<{ name: string; data?: { scorecardId: number | null } }>;
    }>('/api/admin/colleges', { full: 'true', limit: '200', offset: String(offset) });
    if (page.status !== 200) throw new Error(`the admin listing answered ${page.status}`);
    for (const c of page.body.colleges) {
      const id = c.data?.scorecardId;
      if (id !== null && id !== undefined) out.set(id, { name: c.name, data: c.data });
    }
    if (offset + 200 >= page.body.total) break;
  }
  return out;
}

/** Compares every institution of `official` with what the API shows for it. */
export async function auditFigures(api: NamesApi, official: readonly OfficialRow[]): Promise<FiguresReport> {
  const listed = await listedDocuments(api);
  const report: FiguresReport = {
    institutions: official.length,
    checked: 0,
    fields: AUDITED_FIELDS.length,
    unreachable: [],
    mismatches: [],
  };
  for (const row of official) {
    const unitid = Number(row.UNITID);
    const hit = listed.get(unitid);
    if (!hit) {
      report.unreachable.push({ unitid, name: row.INSTNM ?? '' });
      continue;
    }
    report.checked++;
    for (const [field, expected] of Object.entries(EXPECTED)) {
      const shown = at(hit.data, field);
      const want = expected(row);
      if (!same(shown, want))
        report.mismatches.push({ unitid, name: hit.name, field, shown, official: want ?? null });
    }
  }
  return report;
}
