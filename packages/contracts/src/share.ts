/**
 * Read-only share links (issue 33), plain rules shared by the server and the browser (no schema library,
 * safe for the bundle: import from `@ct/contracts/share`): what a link may show, what it shows unless the
 * student adds more, the words the student reads before choosing (its limits are in `limits.ts`).
 */

/**
 * What a link can show beyond the list of colleges itself (always shown). The first six are the default;
 * the rest are opt-ins, each chosen on its own.
 */
export const SHARE_SCOPES = [
  'plan',
  'status',
  'deadlines',
  'progress',
  'calendar',
  'aid',
  'checklist',
  'notes',
  'drafts',
  'scores',
  'income',
  'email',
] as const;
export type ShareScope = (typeof SHARE_SCOPES)[number];

/** What a new link shows unless the student chooses otherwise: the list as it stands, nothing private. */
export const DEFAULT_SHARE_SCOPE: readonly ShareScope[] = [
  'plan',
  'status',
  'deadlines',
  'progress',
  'calendar',
];

/** Never shown unless the student ticks each one: the private parts of their work and of them. */
export const PRIVATE_SHARE_SCOPES: readonly ShareScope[] = ['notes', 'drafts', 'scores', 'income', 'email'];

/** The plain words a student reads beside each choice: what it shows, to whoever holds the link. */
export const SHARE_SCOPE_WORDS: Record<ShareScope, { label: string; detail: string }> = {
  plan: { label: 'Plan', detail: 'Early Decision, Early Action, Regular Decision or rolling, per college.' },
  status: { label: 'Application status', detail: 'Researching, submitted, admitted and so on.' },
  deadlines: { label: 'Next deadlines', detail: 'The coming application deadlines of your colleges.' },
  progress: { label: 'Checklist progress', detail: 'How much of each checklist is done, as a percentage.' },
  calendar: {
    label: 'Calendar',
    detail: 'A calendar they can subscribe to, with its own link (not yours).',
  },
  aid: {
    label: 'Aid offers and costs',
    detail: 'The award letters you typed in: cost of attendance, grants, work-study and loans.',
  },
  checklist: { label: 'Checklist items', detail: 'Each checklist task and whether it is ticked.' },
  notes: {
    label: 'Your notes',
    detail: 'Everything you wrote in your notes. Anyone with the link can read them.',
  },
  drafts: {
    label: 'Your essay drafts',
    detail: 'The full text of your essay drafts. Anyone with the link can read them.',
  },
  scores: {
    label: 'Your scores',
    detail: 'Your GPA and SAT or ACT scores. Anyone with the link can see them.',
  },
  income: {
    label: 'Your household income band',
    detail: 'The income band you gave for cost estimates. Anyone with the link can see it.',
  },
  email: {
    label: 'Your e-mail address',
    detail: 'The address you sign in with. Anyone with the link can see it.',
  },
};
