import { randomUUID } from 'node:crypto';
import { FakeServer, type RecordedRequest } from './fake-server.ts';

type JsonSchema = Record<string, unknown>;

export interface ResponsesRequest {
  model: string;
  instructions: string;
  /** The input as text: the string sent, or the JSON of the input items */
  input: string;
  /** The input exactly as sent: a string, or a list of input items */
  rawInput: unknown;
  schemaName: string;
  schema: JsonSchema;
  tools: unknown[];
}

export interface FakeAnswer {
  /** The JSON value to answer (it should match the requested schema) */
  value: unknown;
  /** Pages to cite as url_citation annotations; defaults to every http(s) URL found in the value */
  citations?: Array<{ url: string; title?: string }>;
  /** Answer this raw text instead of JSON.stringify(value) (to test malformed answers) */
  rawText?: string;
}

export type Responder = (req: ResponsesRequest) => FakeAnswer | undefined | Promise<FakeAnswer | undefined>;

export interface OpenAiFake {
  /** Base URL to use as OPENAI_BASE_URL */
  url: string;
  apiKey: string;
  server: FakeServer;
  /** Requests made to /responses, parsed */
  responses(): ResponsesRequest[];
  /** Answers the next requests with this function (undefined: the schema-driven default answer) */
  setResponder(fn: Responder | null): void;
  close(): Promise<void>;
}

/**
 * A value valid against a strict JSON schema, made up from the schema alone: the default answer of the
 * fake. URLs are example.edu pages (cited), dates a plausible YYYY-MM-DD, fractions 0.5.
 */
export function exampleFromSchema(schema: JsonSchema, name = 'value'): unknown {
  if (Array.isArray(schema.anyOf)) {
    const branches = schema.anyOf as JsonSchema[];
    const pick = branches.find((b) => b.type !== 'null') ?? branches[0] ?? {};
    return exampleFromSchema(pick, name);
  }
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const type = Array.isArray(schema.type) ? (schema.type as string[]).find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>)) {
        out[k] = exampleFromSchema(v, k);
      }
      return out;
    }
    case 'array':
      return [exampleFromSchema((schema.items ?? {}) as JsonSchema, name.replace(/s$/, ''))];
    case 'boolean':
      return true;
    case 'integer':
      return 1;
    case 'number':
      return /rate|fraction|share/i.test(`${name} ${String(schema.description ?? '')}`) ? 0.5 : 1;
    case 'string':
    default: {
      if (/url|link|website/i.test(name)) return `https://www.example.edu/${name.toLowerCase()}`;
      if (/date/i.test(name)) return '2026-11-01';
      return `Example ${name}`;
    }
  }
}

/** Every http(s) URL inside a JSON value. */
function urlsIn(value: unknown, out = new Set<string>()): Set<string> {
  if (typeof value === 'string' && /^https?:\/\//.test(value)) out.add(value);
  else if (Array.isArray(value)) for (const v of value) urlsIn(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) urlsIn(v, out);
  return out;
}

function parseRequest(body: unknown): ResponsesRequest {
  const b = (body ?? {}) as Record<string, unknown>;
  const format = ((b.text as Record<string, unknown> | undefined)?.format ?? {}) as Record<string, unknown>;
  return {
    model: String(b.model ?? ''),
    instructions: String(b.instructions ?? ''),
    input: typeof b.input === 'string' ? b.input : JSON.stringify(b.input ?? ''),
    rawInput: b.input,
    schemaName: String(format.name ?? ''),
    schema: (format.schema ?? {}) as JsonSchema,
    tools: Array.isArray(b.tools) ? b.tools : [],
  };
}

/**
 * A local OpenAI Responses API (`POST /v1/responses`): checks the bearer key, answers Responses-shaped
 * JSON whose output text is valid against the requested strict schema (or what a responder returns),
 * with `url_citation` annotations for the cited pages. Failures switch on through `server.fail(...)`.
 */
export async function startOpenAiFake(
  opts: { apiKey?: string; responder?: Responder } = {},
): Promise<OpenAiFake> {
  const apiKey = opts.apiKey ?? 'test-openai-key';
  let responder: Responder | null = opts.responder ?? null;
  const route = async (req: RecordedRequest) => {
    if (req.method !== 'POST' || !req.path.endsWith('/responses')) {
      return {
        status: 404,
        body: { error: { message: `Unknown path ${req.path}`, type: 'invalid_request_error' } },
      };
    }
    if (req.headers.authorization !== `Bearer ${apiKey}`) {
      return {
        status: 401,
        body: {
          error: {
            message: 'Incorrect API key provided.',
            type: 'invalid_request_error',
            code: 'invalid_api_key',
          },
        },
      };
    }
    const parsed = parseRequest(req.body);
    const answer = (responder ? await responder(parsed) : undefined) ?? {
      value: exampleFromSchema(parsed.schema, parsed.schemaName),
    };
    const text = answer.rawText ?? JSON.stringify(answer.value);
    const citations: Array<{ url: string; title?: string }> =
      answer.citations ?? [...urlsIn(answer.value)].map((url) => ({ url }));
    const annotations = citations.map((c) => {
      const at = text.indexOf(c.url);
      return {
        type: 'url_citation',
        url: c.url,
        title: c.title ?? `Page ${new URL(c.url).pathname}`,
        start_index: Math.max(0, at),
        end_index: Math.max(0, at) + (at >= 0 ? c.url.length : 0),
      };
    });
    const id = randomUUID().replace(/-/g, '');
    return {
      status: 200,
      body: {
        id: `resp_${id}`,
        object: 'response',
        created_at: Math.floor(Date.now() / 1000),
        status: 'completed',
        model: parsed.model,
        error: null,
        incomplete_details: null,
        output: [
          ...(parsed.tools.length
            ? [
                {
                  type: 'web_search_call',
                  id: `ws_${id}`,
                  status: 'completed',
                  action: { type: 'search', query: parsed.input },
                },
              ]
            : []),
          {
            type: 'message',
            id: `msg_${id}`,
            status: 'completed',
            role: 'assistant',
            content: [{ type: 'output_text', text, annotations }],
          },
        ],
        usage: { input_tokens: 100, output_tokens: 100, total_tokens: 200 },
      },
    };
  };
  // A body that is not even JSON: the worst kind of malformed answer.
  const server = new FakeServer(route, '{"id": "resp_broken", "output": [');
  const url = await server.listen('/v1');
  return {
    url,
    apiKey,
    server,
    responses: () =>
      server.requests.filter((r) => r.path.endsWith('/responses')).map((r) => parseRequest(r.body)),
    setResponder: (fn) => {
      responder = fn;
    },
    close: () => server.close(),
  };
}
