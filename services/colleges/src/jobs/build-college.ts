import { College } from '@ct/contracts';
import { PermanentJobError } from '@ct/queue';
import {
  assembleCollege,
  firstProblem,
  matches,
  type CommonAppGrid,
  type GovernmentData,
  type HeldFact,
} from '@ct/providers';
import { asSentence, GATHER_MSG } from '../messages.ts';
import type { GovernmentRead, KnownCollege, PagesRead } from './gather-college.types.ts';

/**
 * Step 3: the document, from the government data, the Common App grid and the screened facts, in the
 * order of sources (`source-order.ts` of @ct/providers: what the answer says against the grid comes back
 * as `held`); refused (the request fails with the reason) when it does not pass our checks.
 */
export function buildCollege(
  localDeadlines: CommonAppGrid | null,
  name: string,
  { gov, sameName, reason: governmentReason }: GovernmentRead,
  { facts, reason: factsReason }: PagesRead,
  scorecardId: number | null = null,
): { college: College; factsGathered: boolean; held: HeldFact[] } {
  const found = facts?.value.found ? facts.value : null;
  const officialName = gov?.name ?? found?.officialName ?? name;
  const local =
    localDeadlines?.find(
      officialName,
      [...(gov?.aliases ?? []), name],
      gov?.demographics.schoolCity ?? found?.city ?? null,
      gov?.demographics.schoolState ?? found?.state ?? null,
      // A stored college's own grid entry, by the UNITID the request knows when the Scorecard gave nothing.
      gov?.scorecardId ?? scorecardId,
    ) ?? null;
  const built = assembleCollege({
    requestedName: name,
    // Several institutions share this official name: keep them apart by place, as the bulk import does.
    name: gov && sameName > 0 ? disambiguate(gov) : undefined,
    government: gov,
    governmentReason,
    facts: facts ? { answer: facts.value, sources: facts.sources } : null,
    factsReason,
    local,
    gatheredAt: new Date().toISOString(),
  });
  if (!matches(College, built.college)) {
    throw new PermanentJobError(GATHER_MSG.failedChecks(firstProblem(College, built.college)));
  }
  return built;
}

function disambiguate(gov: GovernmentData): string {
  const place = [gov.demographics.schoolCity, gov.demographics.schoolState].filter(Boolean).join(', ');
  return place ? `${gov.name} (${place})` : gov.name;
}

/**
 * Says plainly what could not be gathered, and why, when neither source gave anything: for a known
 * college, that its own pages gave nothing (its official figures stay as they are); for a name, what
 * each source said.
 */
export function nothingGatheredReason(
  name: string,
  known: KnownCollege | null,
  sources: { scorecard: boolean; ai: boolean },
  government: GovernmentRead,
  pages: PagesRead,
): string {
  const pagesNotFound = pages.facts !== null && !pages.facts.value.found;
  if (known) {
    const why = pages.failure
      ? asSentence(pages.failure.message)
      : pagesNotFound
        ? GATHER_MSG.pagesNotFound
        : GATHER_MSG.noAiProvider;
    return GATHER_MSG.pagesNotGathered(known.name, why);
  }
  if (!sources.scorecard && !sources.ai) return GATHER_MSG.nothingConfigured(name);
  const parts: string[] = [];
  if (government.failure) parts.push(asSentence(government.failure.message));
  else parts.push(sources.scorecard ? GATHER_MSG.noScorecardRecord : GATHER_MSG.noScorecardKey);
  if (pages.failure) parts.push(asSentence(pages.failure.message));
  else if (sources.ai && pagesNotFound) parts.push(GATHER_MSG.pagesNotFound);
  else if (!sources.ai) parts.push(GATHER_MSG.noAiFacts);
  const why = parts.join(' ');
  return government.failure || pages.failure
    ? GATHER_MSG.notGathered(name, why)
    : GATHER_MSG.notFound(name, why);
}
