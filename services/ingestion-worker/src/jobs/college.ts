import {
  College,
  CollegeFactsAnswer,
  IngestCollegeJob,
  internalIngestionComplete,
  internalIngestionFail,
  internalIngestionStage,
  internalIngestionStart,
  type IngestionStage,
} from '@ct/contracts';
import { PermanentJobError } from '@ct/queue';
import {
  assembleCollege,
  firstProblem,
  matches,
  ProviderError,
  type GovernmentData,
  type Gathered,
} from '@ct/providers';
import { timeProvider } from '../metrics.ts';
import { defineJob } from '../registry.ts';

export const FACTS_INSTRUCTIONS = `You gather facts about one college for high-school students who are applying to it.
Search the web. Read the college's own official pages first (admissions, first-year applicants, financial aid);
use other reputable pages only when the college publishes nothing on the subject.
For every group give the value and the URL of the exact page you read it on.
When no page states a value, give null for it. Never estimate, infer, round up or invent a value.
Deadlines are for first-year applicants in the coming admission cycle, each with its type and a YYYY-MM-DD date
(null only for a rolling deadline). Essay prompts are quoted word for word. The acceptance rate is a fraction
between 0 and 1 with the cycle or class year it describes. Set found to false if no such college exists.`;

/** The question put to the AI provider about one college. */
function factsQuestion(typed: string, gov: GovernmentData | null): string {
  if (!gov) return `College: "${typed}" (as a student typed it). Give its official full name.`;
  const place = [gov.demographics.schoolCity, gov.demographics.schoolState].filter(Boolean).join(', ');
  return (
    `College: ${gov.name}${place ? `, ${place}` : ''}` +
    `${gov.website ? ` (official website ${gov.website})` : ''}. A student asked for "${typed}".`
  );
}

/** A failure that another try could fix is thrown again while tries remain; otherwise it is reported. */
function absorb(err: unknown, lastTry: boolean): ProviderError {
  if (!(err instanceof ProviderError)) throw err;
  if (err.retryable && !lastTry) throw err;
  return err;
}

/** One sentence for the student from a provider error (its message is already readable). */
const sentence = (s: string) => (s.endsWith('.') ? s : `${s}.`);

/**
 * Gathers one college: government data from the College Scorecard, college facts from the college's pages
 * through the AI provider, deadlines from the Common App grid where those give none; validates the
 * document and hands it to the colleges service, which stores it and announces `college.ingested`.
 * Providers that are not configured are skipped and named in the document's `missing` list; when nothing
 * at all can be gathered the request fails with a reason a student can read.
 */
export const collegeJob = defineJob(IngestCollegeJob, async (job, deps) => {
  const { key, name, scorecardId } = job.data;
  const { clients, log } = deps;
  const lastTry = job.attemptsMade + 1 >= job.attempts;
  const stage = (s: IngestionStage) => clients.call(internalIngestionStage, { body: { key, stage: s } });

  const started = await clients.call(internalIngestionStart, { body: { key } });
  if (!started.proceed) return { skipped: true, state: started.request?.state ?? null };

  try {
    // 1. Government data
    let gov: GovernmentData | null = null;
    let sameName = 0;
    let governmentReason: string | undefined;
    let govFailure: ProviderError | null = null;
    if (deps.scorecard) {
      const scorecard = deps.scorecard;
      try {
        if (scorecardId !== undefined)
          gov = await timeProvider('scorecard', () => scorecard.getSchool(scorecardId));
        else {
          const match = await timeProvider('scorecard', () => scorecard.findSchool(name));
          gov = match?.school ?? null;
          sameName = match?.sameNameCount ?? 0;
        }
        if (!gov) governmentReason = 'the College Scorecard has no record of a college by this name';
      } catch (err) {
        govFailure = absorb(err, lastTry);
        governmentReason = govFailure.message;
      }
    } else {
      governmentReason = 'no College Scorecard API key is configured';
    }

    // 2. College facts from the college's own pages
    let facts: Gathered<CollegeFactsAnswer> | null = null;
    let factsReason: string | undefined;
    let factsFailure: ProviderError | null = null;
    if (deps.ai) {
      const ai = deps.ai;
      await stage('college-facts');
      try {
        facts = await timeProvider('openai', () =>
          ai.gatherJson({
            instructions: FACTS_INSTRUCTIONS,
            input: factsQuestion(name, gov),
            schema: CollegeFactsAnswer,
            schemaName: 'college_facts',
          }),
        );
      } catch (err) {
        factsFailure = absorb(err, lastTry);
        factsReason = factsFailure.message;
      }
    } else {
      factsReason = 'no AI provider is configured';
    }

    const found = facts?.value.found ? facts.value : null;
    if (!gov && !found) {
      throw new PermanentJobError(
        nothingGatheredReason(name, !!deps.scorecard, !!deps.ai, govFailure, factsFailure, facts),
      );
    }

    // 3. Local deadlines, then the document
    const officialName = gov?.name ?? found?.officialName ?? name;
    const local =
      deps.localDeadlines?.find(
        officialName,
        [...(gov?.aliases ?? []), name],
        gov?.demographics.schoolCity ?? found?.city ?? null,
        gov?.demographics.schoolState ?? found?.state ?? null,
        gov?.scorecardId ?? null,
      ) ?? null;
    const { college, factsGathered } = assembleCollege({
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
    if (!matches(College, college)) {
      throw new PermanentJobError(
        `The gathered data did not pass our checks (${firstProblem(College, college)}).`,
      );
    }
    await clients.call(internalIngestionComplete, { body: { key, college, factsGathered } });
    log.info({ key, college: college.name, missing: college.missing.length }, 'college gathered');
    return { college: college.name };
  } catch (err) {
    // Handed back on shutdown: another worker runs it again; nothing to report.
    if (job.signal?.aborted) throw err;
    const permanent = err instanceof PermanentJobError || (err instanceof ProviderError && !err.retryable);
    const reason =
      err instanceof PermanentJobError
        ? err.message
        : err instanceof ProviderError
          ? `We could not gather "${name}" right now: ${sentence(err.message)}`
          : `We could not gather "${name}" because of an error on our side.`;
    const final = permanent || lastTry;
    try {
      await clients.call(internalIngestionFail, { body: { key, reason, final } });
    } catch (reportErr) {
      log.warn({ err: reportErr, key }, 'could not report a failed ingestion try');
    }
    if (final && !(err instanceof PermanentJobError)) throw new PermanentJobError(reason);
    throw err;
  }
});

function disambiguate(gov: GovernmentData): string {
  const place = [gov.demographics.schoolCity, gov.demographics.schoolState].filter(Boolean).join(', ');
  return place ? `${gov.name} (${place})` : gov.name;
}

/** Says plainly what could not be gathered, and why, when nothing could. */
function nothingGatheredReason(
  name: string,
  hasScorecard: boolean,
  hasAi: boolean,
  govFailure: ProviderError | null,
  factsFailure: ProviderError | null,
  facts: Gathered<CollegeFactsAnswer> | null,
): string {
  if (!hasScorecard && !hasAi) {
    return (
      `We could not gather "${name}": no College Scorecard API key and no AI provider are configured, ` +
      'so neither government data nor college facts could be gathered.'
    );
  }
  const parts: string[] = [];
  if (govFailure) parts.push(sentence(govFailure.message));
  else if (hasScorecard) parts.push('The College Scorecard has no record of a college by this name.');
  else parts.push('No College Scorecard API key is configured, so no government data could be gathered.');
  if (factsFailure) parts.push(sentence(factsFailure.message));
  else if (hasAi && facts && !facts.value.found) parts.push("The college's own pages could not be found.");
  else if (!hasAi) parts.push('No AI provider is configured, so no college facts could be gathered.');
  const notFound = !govFailure && !factsFailure;
  return `${notFound ? `We could not find a college called "${name}".` : `We could not gather "${name}".`} ${parts.join(' ')}${
    notFound ? ' Check the spelling or try its full official name.' : ''
  }`;
}
