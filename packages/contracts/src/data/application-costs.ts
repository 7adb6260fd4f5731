/**
 * Published facts about what applying costs, kept as data with their sources (issue 22). Figures only;
 * the wording the product shows is our own. Update each entry, its `asOf` and `recorded`, when its source
 * publishes a new schedule.
 */

/** The CSS Profile's fee schedule (College Board). */
export const CSS_PROFILE_FEES = {
  /** The application with its first college */
  first: 25,
  /** Each further college */
  additional: 16,
  /** The application year the schedule is published for */
  asOf: '2025-26',
  /** When this entry was written down */
  recorded: '2026-11-25',
  source: {
    title: 'College Board, CSS Profile fees and fee waivers',
    url: 'https://cssprofile.collegeboard.org/pay-for-the-css-profile',
  },
} as const;

/**
 * Colleges that require the CSS Profile of first-year applicants for their own aid, by College Scorecard
 * UNITID (College Board's list of participating institutions). A college not listed here reads "No Info
 * Found", never "not required".
 */
export const CSS_PROFILE_REQUIRED = {
  asOf: '2025-26',
  recorded: '2026-11-25',
  source: {
    title: 'College Board, CSS Profile participating institutions',
    url: 'https://profile.collegeboard.org/profile/ppi/participatingInstitutions.aspx',
  },
  unitids: [
    166027, // Harvard University
    130794, // Yale University
    166683, // Massachusetts Institute of Technology
    243744, // Stanford University
    198419, // Duke University
    147767, // Northwestern University
    144050, // University of Chicago
    190150, // Columbia University in the City of New York
    217156, // Brown University
    182670, // Dartmouth College
    215062, // University of Pennsylvania
    190415, // Cornell University
    131496, // Georgetown University
  ] as readonly number[],
} as const;

/**
 * Who can apply without fees: the published criteria, to be restated in our own words where shown
 * (`FEE_WAIVER_CHECKS`). One met criterion is enough for a Common App fee waiver; the counselor confirms it.
 */
export const FEE_WAIVER_SOURCES = {
  commonApp: {
    title: 'Common App, fee waiver eligibility',
    url: 'https://appsupport.commonapp.org/applicantsupport/s/article/What-are-the-fee-waiver-eligibility-requirements',
    recorded: '2026-11-25',
  },
  cssProfile: CSS_PROFILE_FEES.source,
} as const;
