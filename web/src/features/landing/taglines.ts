/** The ten messages the landing tagline types out, in order. */
export const TAGLINES = [
  'Find the colleges that fit you.',
  'Keep every deadline in one calendar.',
  'Turn each application into a checklist.',
  'Compare costs and outcomes side by side.',
  'See what it takes to study your major.',
  'Read essay prompts before they sneak up on you.',
  'Track your progress one checkbox at a time.',
  'Real government data, gathered for you.',
  'Free for every student, always.',
  'Apply with a plan, not with panic.',
] as const;
