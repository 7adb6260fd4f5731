import { Agent, request } from 'undici';
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

/** The parts of a Responses API answer this client reads. */
interface ResponsesAnswer {
  status?: string;
  model?: string;
  output?: Array<{
    type?: string;
    content?: Array<{
      type?: string;
      text?: string;
      annotations?: Array<{ type?: string; url?: string; title?: string }>;
    }>;
  }>;
}

/**
 * The OpenAI Responses API (`POST {base}/responses`) with the web search tool and strict JSON-schema
 * output. Spoken directly over undici: the ingestion worker makes many of these calls, and the SDK's
 * fetch-based transport costs several times the CPU for the same request.
 */
export class AiClient {
  private readonly agent = new Agent({ keepAliveTimeout: 10_000, connections: 64 });
  private readonly url: string;

  constructor(private readonly opts: AiClientOptions) {
    this.url = `${(opts.baseUrl ?? DEFAULT_OPENAI_BASE_URL).replace(/\/$/, '')}/responses`;
  }

  /** Closes the kept-alive connections. */
  async close(): Promise<void> {
    // destroy, not close: close waits for calls still in flight, and on shutdown their jobs were already
    // handed back to the queue.
    await this.agent.destroy();
  }

  /**
   * Asks the model for a JSON value matching `schema`, searching the web when allowed, and returns the
   * value (validated against the schema) with the pages it cited. Throws ProviderError. No retries here:
   * the job queue retries with backoff, and a hidden retry loop would only hold the job longer.
   */
  async gatherJson<S extends TSchema>(req: GatherRequest<S>): Promise<Gathered<Static<S>>> {
    await this.opts.budget?.();
    const timeout = this.opts.timeoutMs ?? 120_000;
    const payload = {
      model: this.opts.model,
      instructions: req.instructions,
      input: req.data === undefined ? req.input : inputItems(req.input, req.data),
      ...(req.webSearch === false ? {} : { tools: [{ type: 'web_search' }] }),
      text: {
        format: {
          type: 'json_schema',
          name: req.schemaName,
          schema: toStrictJsonSchema(req.schema),
          strict: true,
        },
      },
    };
    let raw: string;
    try {
      const res = await request(this.url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${this.opts.apiKey}`,
          'content-type': 'application/json',
          accept: 'application/json',
        },
        body: JSON.stringify(payload),
        dispatcher: this.agent,
        headersTimeout: timeout,
        bodyTimeout: timeout,
        signal: AbortSignal.timeout(timeout),
      });
      if (res.statusCode >= 400) {
        await res.body.dump().catch(() => {});
        throw httpError('openai', res.statusCode);
      }
      raw = await res.body.text();
    } catch (err) {
      throw toProviderError(err);
    }
    let answer: ResponsesAnswer;
    try {
      answer = JSON.parse(raw) as ResponsesAnswer;
    } catch {
      throw new ProviderError('openai', 'malformed', 'answered with a body that is not valid JSON');
    }
    if (answer.status && answer.status !== 'completed') {
      throw new ProviderError('openai', 'malformed', `gave an incomplete answer (${answer.status})`);
    }
    let text = '';
    const sources = new Map<string, CitedSource>();
    for (const item of answer.output ?? []) {
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
function inputItems(question: string, data: Record<string, unknown>) {
  return [
    { role: 'user', content: [{ type: 'input_text', text: question }] },
    { role: 'user', content: [{ type: 'input_text', text: dataBlock(data) }] },
  ];
}

function toProviderError(err: unknown): ProviderError {
  if (err instanceof ProviderError) return err;
  const e = err as { name?: string; code?: string };
  if (
    e.name === 'TimeoutError' ||
    e.name === 'AbortError' ||
    e.code === 'UND_ERR_HEADERS_TIMEOUT' ||
    e.code === 'UND_ERR_BODY_TIMEOUT'
  ) {
    return new ProviderError('openai', 'timeout', 'did not answer in time');
  }
  return new ProviderError('openai', 'unavailable', 'could not be reached');
}
