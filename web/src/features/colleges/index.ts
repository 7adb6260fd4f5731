// The college card and its sections, shared by the search, compare and dashboard screens.
export { CollegeCard, EnrichmentLine } from './CollegeCard';
export { AddToProfileButton } from './AddToProfileButton';
export * from './sections';
export { findSource, FactSource, SourceLink, type Sources } from './sources';
