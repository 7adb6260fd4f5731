// The fit band and the cost of applying (issue 22), shared by the college card, Compare and the season overview.
export { FitBand } from './FitBand';
export { ApplicationCost, ApplicationCostSummary } from './ApplicationCost';
export { AcademicProfilePanel } from './AcademicProfilePanel';
export { academicProfileQuery, useAcademicProfile } from './api';
export { fitOf, costInput, BAND_TEXT } from './fit';
export { ListBalanceNote } from './ListBalanceNote';
