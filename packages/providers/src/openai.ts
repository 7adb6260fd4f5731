import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import type { Response, ResponseInputItem } from 'openai/resources/responses/responses';
import type { Static, TSchema } from 'typebox';
import { ProviderError, httpError } from './errors.ts';
import { dropNullOptionals, toStrictJsonSchema } from './json-schema.ts';
import { firstProblem, matches } from './validate.ts';

export const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1';

export interface AiClientOptions {
  apiKey: string;
  /** e.g. https://api.openai.com/v1 (default) or a local fake */
  baseUrl?: string | undefined;
  model: string;
  /** Per request; web search answers can take a minute. */
  timeoutMs?: number;
  /**
   * Asked before every call: counts it against a limit shared by every process (the hourly circuit
   * breaker). Throws a ProviderError of kind `paused` when the limit is spent.
   */
  budget?: (() => Promise<void>) | undefined;
}

export interface GatherRequest<S extends TSchema> {
  /** System-level guidance: what to gather and the rules (cite pages, never guess). */
  instructions: string;
  /** The question itself, written by us (never holding text from outside). */
  input: string;
  /**
   * Values that come from outside, above all what a student typed: sent as a JSON data block in an input
   * item of its own, after the question, never inside the instructions. The instructions should say to
   * treat it as data.
   */
  data?: Record<string, unknown>;
  /** Contracts schema of the answer; sent as a strict JSON schema and checked again on arrival. */
  schema: S;
  /** Name of the schema in the request (letters, digits, _ and -). */
  schemaName: string;
  /** Let the model search the web (default true). */
  webSearch?: boolean;
}

/** A page the answer cited (a `url_citation` annotation). */
export interface CitedSource {
  url: string;
  title: string | null;
}

export interface Gathered<T> {
  value: T;
  /** Every page the model cited, without duplicates, in order of first citation. */
  sources: CitedSource[];
  model: string;
}

/**
 * The OpenAI Responses API with the web search tool and strict JSON-schema output, through the official
 * `openai` package (issue 47.5: typed requests and answers, error classes and timeouts that follow the API
 * as it changes; ADR 0101). `OPENAI_BASE_URL` points it at another server (the tests' local stand-in).
 *
 * The package's own retries are off: the job queue retries with backoff, each call is counted against the
 * hourly AI allowance before it is made, and a retry inside the client would spend that allowance unseen
 * and hold the job longer.
 */
export class AiClient {
  private readonly client: OpenAI;

  constructor(private readonly opts: AiClientOptions) {
    this.client = new OpenAI({
      apiKey: opts.apiKey,
      baseURL: (opts.baseUrl ?? DEFAULT_OPENAI_BASE_URL).replace(/\/$/, ''),
      timeout: opts.timeoutMs ?? 120_000,
      maxRetries: 0,
    });
  }

  /** Nothing to close: the package's fetch keeps no connection that outlives its calls' use. */
  async close(): Promise<void> {}

  /**
   * Asks the model for a JSON value matching `schema`, searching the web when allowed, and returns the
   * value (validated against the schema) with the pages it cited. Throws ProviderError.
   */
  async gatherJson<S extends TSchema>(req: GatherRequest<S>): Promise<Gathered<Static<S>>> {
    await this.opts.budget?.();
    let answer: Response;
    try {
      answer = await this.client.responses.create({
        model: this.opts.model,
        instructions: req.instructions,
        input: req.data === undefined ? req.input : inputItems(req.input, req.data),
        ...(req.webSearch === false ? {} : { tools: [{ type: 'web_search' }] }),
        text: {
          format: {
            type: 'json_schema',
            name: req.schemaName,
            schema: toStrictJsonSchema(req.schema) as Record<string, unknown>,
            strict: true,
          },
        },
      });
    } catch (err) {
      throw toProviderError(err);
    }
    if (!answer || typeof answer !== 'object' || !Array.isArray(answer.output)) {
      throw new ProviderError('openai', 'malformed', 'answered with a body that is not a response');
    }
    if (answer.status && answer.status !== 'completed') {
      throw new ProviderError('openai', 'malformed', `gave an incomplete answer (${answer.status})`);
    }
    let text = '';
    const sources = new Map<string, CitedSource>();
    for (const item of answer.output) {
      if (item.type !== 'message') continue;
      for (const part of item.content ?? []) {
        if (part.type === 'refusal') throw new ProviderError('openai', 'bad-request', 'declined to answer');
        if (part.type !== 'output_text') continue;
        text += part.text ?? '';
        for (const a of part.annotations ?? []) {
          if (a.type === 'url_citation' && a.url && /^https?:\/\//i.test(a.url) && !sources.has(a.url)) {
            sources.set(a.url, { url: a.url, title: a.title || null });
          }
        }
      }
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new ProviderError('openai', 'malformed', 'answered with text that is not valid JSON');
    }
    const value = dropNullOptionals(req.schema, parsed);
    if (!matches(req.schema, value)) {
      throw new ProviderError(
        'openai',
        'malformed',
        `answered JSON that does not match the expected shape (${firstProblem(req.schema, value)})`,
      );
    }
    return {
      value: value as Static<S>,
      sources: [...sources.values()],
      model: answer.model ?? this.opts.model,
    };
  }
}

/** Opening and closing marks of the data block; the instructions refer to them. */
export const DATA_OPEN = '<data>';
export const DATA_CLOSE = '</data>';

/**
 * A JSON object between data marks. `<` and `>` are written as JSON escapes, so nothing inside can close
 * the block early or open a new one; the JSON still reads the same.
 */
export function dataBlock(data: Record<string, unknown>): string {
  const json = JSON.stringify(data).replace(/</g, '\\u003c').replace(/>/g, '\\u003e');
  return `${DATA_OPEN}${json}${DATA_CLOSE}`;
}

/** The Responses API input: our question, then the data block as a message of its own. */
function inputItems(question: string, data: Record<string, unknown>): ResponseInputItem[] {
  return [
    { role: 'user', content: [{ type: 'input_text', text: question }] },
    { role: 'user', content: [{ type: 'input_text', text: dataBlock(data) }] },
  ];
}

/** The package's errors as ours: a status names the kind; no answer is a timeout or "unavailable". */
function toProviderError(err: unknown): ProviderError {
  if (err instanceof ProviderError) return err;
  if (err instanceof APIConnectionTimeoutError || err instanceof APIUserAbortError)
    return new ProviderError('openai', 'timeout', 'did not answer in time');
  if (err instanceof APIConnectionError)
    return new ProviderError('openai', 'unavailable', 'could not be reached');
  if (err instanceof APIError && typeof err.status === 'number') return httpError('openai', err.status);
  // An answer the package could not read (a 200 whose body is not JSON).
  if (err instanceof SyntaxError)
    return new ProviderError('openai', 'malformed', 'answered with a body that is not valid JSON');
  return new ProviderError('openai', 'unavailable', 'could not be reached');
}
