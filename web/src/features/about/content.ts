// The About page's copy. The product name and every address come from configuration, never from here.
import { PUBLISHED } from '@ct/contracts/limits';
import type { IconName } from '../landing/FeatureIcon';

export type TabKey = 'about' | 'features' | 'how' | 'faq' | 'contact' | 'donate';

export const TABS: { key: TabKey; label: string }[] = [
  { key: 'about', label: 'About Us' },
  { key: 'features', label: 'Features' },
  { key: 'how', label: 'How It Works' },
  { key: 'faq', label: 'FAQ' },
  { key: 'contact', label: 'Contact' },
  { key: 'donate', label: 'Donate' },
];

export interface Counter {
  value: number;
  label: string;
}
export interface TimelineEvent {
  title: string;
  description: string;
}
export interface FaqItem {
  question: string;
  answer: string;
}
export interface FeatureCard {
  icon: IconName;
  title: string;
  description: string;
}

export const mission = (product: string) =>
  `${product} exists so that every high-school student can plan college applications with the same clarity as a student with a private counselor. We bring official college data, deadlines, checklists and essay help into one free place, so you spend your energy on your applications instead of on tracking them.`;

export const VALUES: { title: string; text: string }[] = [
  {
    title: 'Accessibility',
    text: 'Free for everyone, usable on any device, with a keyboard or a screen reader.',
  },
  {
    title: 'Transparency',
    text: 'Figures come from official sources, and we say where each fact came from and when it was gathered.',
  },
  {
    title: 'Empowerment',
    text: 'We give you the information and the plan; every decision stays yours.',
  },
  {
    title: 'Community',
    text: 'Built by a student, shaped by the questions and ideas of the students who use it.',
  },
];

/**
 * The About counters: majors and colleges as the server counts them (the colleges a student can find
 * today, not a round target), and the items per college the spec states. Until the count arrives the
 * colleges counter stands at 0; if it cannot be read, it is left out rather than guessed.
 */
export function counters(stats: { colleges: number; majors: number } | null, failed: boolean): Counter[] {
  return [
    { value: stats?.majors ?? PUBLISHED.majors, label: 'Majors' },
    ...(failed ? [] : [{ value: stats?.colleges ?? 0, label: 'Colleges' }]),
    { value: PUBLISHED.itemsPerCollege, label: 'Deadlines, stats and tips per college' },
  ];
}

export const builderIntro = (product: string) =>
  `${product} was built by a high-school student who went through the application season with a dozen browser tabs, three spreadsheets and a pile of sticky notes, and decided the next class deserved better.`;

export const FEATURE_CARDS: FeatureCard[] = [
  {
    icon: 'search',
    title: 'Interactive College Search',
    description:
      'Type a college name, pick it from the suggestions and get its demographics, costs, deadlines, requirements and tips on one card.',
  },
  {
    icon: 'list',
    title: 'Dynamic Checklists',
    description:
      'Every college you add gets an application checklist built from what it requires. Edit it, tick items off and watch the progress bar fill up.',
  },
  {
    icon: 'calendar',
    title: 'Deadline Management',
    description:
      'College deadlines and your own dated notes share one calendar, which you can download or add to Google Calendar.',
  },
  {
    icon: 'chart',
    title: 'Compare Colleges',
    description:
      'Up to four colleges side by side on size, admission rate, tuition, net price by family income and earnings, with the best figure highlighted where one is clearly better.',
  },
  {
    icon: 'pen',
    title: 'Example Essays',
    description: 'The essay prompts of each college with example essays to spark your own ideas.',
  },
  {
    icon: 'cap',
    title: 'Major Info',
    description:
      'Average weighted GPA, SAT score, activities and essay topics of admitted students for a major at a college you choose.',
  },
];

export const TIMELINE: TimelineEvent[] = [
  {
    title: 'Sign up',
    description: 'Create your free account with your e-mail or Google account. No setup, no payment.',
  },
  {
    title: 'Search and compare colleges',
    description:
      'Find colleges by their official names, read their cards and compare up to four of them side by side. Add the ones you like to your list.',
  },
  {
    title: 'Generate checklists',
    description: 'Each college on your list gets its own application checklist, ready to edit.',
  },
  {
    title: 'Find ideas',
    description: 'Look up your major at each college and read essay prompts and example essays.',
  },
  {
    title: 'Track deadlines',
    description: 'See every deadline on your calendar, add your own with dated notes and export them.',
  },
  {
    title: 'Stay on top',
    description: 'Tick items off as you go; the progress bars show what is done and what is left.',
  },
];

export const faqItems = (product: string, faqEmail: string): FaqItem[] => [
  {
    question: `What is ${product} for?`,
    answer: `${product} helps high-school students organize college applications: find colleges, keep a list of them, work through a checklist for each, track deadlines, compare colleges, look up majors and read essay examples, all in one place.`,
  },
  {
    question: 'How do I add a college to my list?',
    answer:
      'Open Search, type the college’s full official name and press Search/Add College. When its card appears, press Add to Profile and it shows up under Your Colleges with its own checklist.',
  },
  {
    question: 'Why is a college missing from the autocomplete or from Compare?',
    answer:
      'The suggestions and Compare only list colleges that are already in our data. Search for the college once by its full official name (for example "University of California, Los Angeles" rather than "UCLA") and it will be gathered and suggested from then on.',
  },
  {
    question: 'Why is my first search for a college slow?',
    answer:
      'The first time anyone looks up a college, we gather its data from government sources and the college’s own pages, which can take a little while. After that it is saved, and every later search is quick.',
  },
  {
    question: 'Why can’t I look up a major for a college?',
    answer:
      'Major statistics are available for colleges on your list. Add the college to your profile first, then choose it on Your Colleges and type the major in the major stats panel.',
  },
  {
    question: 'Can I add or delete my own deadlines?',
    answer:
      'Yes. On your Profile, create a note and give it a date: it appears on your deadlines calendar. Delete the note and the deadline goes away with it.',
  },
  {
    question: 'What is an ICS file?',
    answer:
      'An ICS file is the standard calendar format. Download your deadlines as deadlines.ics from your Profile and open it with Google Calendar, Apple Calendar or Outlook to add them all at once.',
  },
  {
    question: 'Where can I ask questions?',
    answer: `Write to us at ${faqEmail}. We read every message and answer as soon as we can.`,
  },
  {
    question: `How much does ${product} cost?`,
    answer: `Nothing. ${product} is free for every student, has no paid plans and is funded by donations.`,
  },
];
