import type { PromptCategory } from '@ct/contracts';

/**
 * Kinds of prompt, most specific first: the first kind whose patterns match a prompt is its kind. Plain
 * keyword rules rather than a model, so the grouping is instant, free and explainable.
 */
const RULES: ReadonlyArray<{ category: PromptCategory; patterns: RegExp[] }> = [
  {
    category: 'why-us',
    patterns: [
      /\bwhy (do you want|are you interested|do you wish|have you chosen|this (college|university|school))/i,
      /\bwhy (us|[A-Z][a-z]+ (college|university))\b/i,
      /\b(attend|apply to|choose|chosen) (our|this) (college|university|school|campus)\b/i,
      /\bwhat (attracts|draws) you to\b/i,
      /\bfit (at|with) (our|this)\b/i,
      // "Why Tufts?": a bare why-question about a proper name (case-sensitive on purpose)
      /^\s*[Ww]hy\s+[A-Z][^?]{0,80}\?\s*$/,
    ],
  },
  {
    category: 'major',
    patterns: [
      /\b(intended|prospective|chosen|your) (major|field of study|area of study|program)\b/i,
      /\bwhy .*\bmajor\b/i,
    ],
  },
  {
    category: 'intellectual',
    patterns: [
      /\bacademic (subject|interest)\b/i,
      /\bintellectual\b/i,
      /\b(idea|concept|topic)s?\b.*\b(engaging|captivat|curious|curiosity)/i,
      /\blose all track of time\b/i,
      /\beducational opportunit/i,
      /\bbelief or idea\b/i,
    ],
  },
  {
    category: 'challenge',
    patterns: [
      /\bchalleng(e|es|ed|ing)\b/i,
      /\bobstacles?\b/i,
      /\bsetbacks?\b/i,
      /\bfailures?\b/i,
      /\bovercom(e|ing)\b/i,
      /\bbarriers?\b/i,
    ],
  },
  {
    category: 'identity',
    patterns: [
      /\bbackground\b/i,
      /\bidentity\b/i,
      /\bwho you are\b/i,
      /\byour story\b/i,
      /\bstrong candidate\b/i,
    ],
  },
  {
    category: 'community',
    patterns: [
      /\bcommunit(y|ies)\b/i,
      /\bbelong(ing)?\b/i,
      /\bdivers(e|ity)\b/i,
      /\b(culture|cultural)\b/i,
      /\bcontribute to\b/i,
      /\b(school|community|world) a better place\b/i,
    ],
  },
  {
    category: 'activity',
    patterns: [
      /\bextracurricular\b/i,
      /\bactivit(y|ies)\b/i,
      /\bleadership\b/i,
      /\b(talent|skill)s?\b/i,
      /\bwork experience\b/i,
      /\bteam\b/i,
    ],
  },
  {
    category: 'growth',
    patterns: [
      /\bpersonal growth\b/i,
      /\brealization\b/i,
      /\baccomplishment\b/i,
      /\bgrat(itude|eful)\b/i,
      /\bthankful\b/i,
    ],
  },
  { category: 'creativity', patterns: [/\bcreativ(e|ity)\b/i] },
  { category: 'open', patterns: [/\btopic of your choice\b/i, /\bany topic\b/i, /\bof your own design\b/i] },
];

/** The kind of a prompt, or `other`. */
export function categorisePrompt(prompt: string): PromptCategory {
  for (const { category, patterns } of RULES) if (patterns.some((p) => p.test(prompt))) return category;
  return 'other';
}

/** How the page names each kind, and how one draft can serve a group of them. */
export const CATEGORY_TEXT: Record<PromptCategory, { label: string; advice: string }> = {
  'why-us': {
    label: 'Why this college',
    advice:
      'Draft one essay about what you want from college, then swap in each college’s own programs, people and places.',
  },
  major: {
    label: 'Your intended major',
    advice: 'One story of how your interest grew can open each answer; tailor the ending to each program.',
  },
  community: {
    label: 'Community and belonging',
    advice:
      'Pick one community you are part of and what you gave it; adapt the last paragraph to each campus.',
  },
  activity: {
    label: 'Activities, leadership and talents',
    advice: 'Write about one activity in depth; trim or expand it to each word limit.',
  },
  challenge: {
    label: 'Challenges and setbacks',
    advice: 'One honest account of a challenge and what you learned can answer each of these.',
  },
  intellectual: {
    label: 'Ideas and intellectual curiosity',
    advice: 'Choose one idea that excites you and show how you pursued it; the same draft fits each prompt.',
  },
  identity: {
    label: 'Background and identity',
    advice: 'A single story about who you are can be shaped for each of these.',
  },
  growth: {
    label: 'Growth and gratitude',
    advice: 'One moment that changed how you see yourself or others can serve each prompt.',
  },
  creativity: {
    label: 'Creativity',
    advice: 'Show one way you create or solve problems; adjust the examples to each prompt.',
  },
  open: { label: 'Topic of your choice', advice: 'Your strongest essay from any other prompt can go here.' },
  other: {
    label: 'Other prompts',
    advice:
      'Read each prompt closely: each different prompt here needs a draft of its own (the same prompt at several colleges is one draft).',
  },
};
