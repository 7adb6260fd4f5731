import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * tests/fixtures: small data files derived from the public data by `npm run data:fixtures` (see its
 * README). Tests read these, never the shared data folder beside the checkout.
 */
export const FIXTURES_DIR = fileURLToPath(new URL('../../../fixtures/', import.meta.url));

/**
 * A file shaped like the published Common App and UC prompts, with texts written for the tests (tests give
 * it to the essays service as ESSAY_PROMPTS_FILE).
 */
export const ESSAY_PROMPTS_JSON = path.join(FIXTURES_DIR, 'essay-prompts.json');
/** CIP 2020 codes and titles of the majors and a sample of the rest. */
export const CIP_CODES_CSV = path.join(FIXTURES_DIR, 'cip-codes.csv');
/** Entries of the Common App requirements grid (facts only), as the grid file holds them. */
export const COMMON_APP_GRID_JSON = path.join(FIXTURES_DIR, 'common-app-grid.json');

/**
 * How a fake misbehaves: `500` and `429` answer that status, `timeout` never answers (until released or
 * closed), `malformed` answers 200 with a body that is not what the API promises.
 */
export type FailureMode = '500' | '429' | 'timeout' | 'malformed';

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}

export type Route = (
  req: RecordedRequest,
) => { status: number; body: unknown } | Promise<{ status: number; body: unknown }>;

/** A small local HTTP server shared by the provider fakes: call log, switchable failures, held requests. */
export class FakeServer {
  readonly requests: RecordedRequest[] = [];
  private server: http.Server;
  private sockets = new Set<Socket>();
  private failures: Array<{ mode: FailureMode; times: number }> = [];
  private held: Array<() => void> = [];
  private holding = false;
  private waiters: Array<{ n: number; resolve: () => void }> = [];
  url = '';

  constructor(
    private readonly route: Route,
    private readonly malformedBody: string,
  ) {
    this.server = http.createServer((req, res) => void this.handle(req, res));
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
  }

  async listen(basePath: string): Promise<string> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    const { port } = this.server.address() as AddressInfo;
    this.url = `http://127.0.0.1:${port}${basePath}`;
    return this.url;
  }

  /** Number of requests received so far. */
  get calls(): number {
    return this.requests.length;
  }

  /** The next `times` requests fail this way (default: every request until `succeed()`). */
  fail(mode: FailureMode, times = Number.POSITIVE_INFINITY): void {
    this.failures = [{ mode, times }];
  }

  /** Stops failing. */
  succeed(): void {
    this.failures = [];
  }

  /** Requests from now on wait (as a slow provider) until `release()`. */
  hold(): void {
    this.holding = true;
  }

  /** Lets held requests (and later ones) through. */
  release(): void {
    this.holding = false;
    for (const go of this.held.splice(0)) go();
  }

  /** Resolves once `n` requests in total have arrived. */
  waitForCalls(n: number): Promise<void> {
    if (this.calls >= n) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ n, resolve }));
  }

  async close(): Promise<void> {
    this.release();
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((r) => this.server.close(() => r()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    let body: unknown = raw;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      /* kept as text */
    }
    const u = new URL(req.url ?? '/', 'http://fake');
    const rec: RecordedRequest = {
      method: req.method ?? 'GET',
      path: u.pathname,
      query: u.searchParams,
      headers: req.headers,
      body,
    };
    this.requests.push(rec);
    for (const w of this.waiters.filter((x) => this.calls >= x.n)) {
      this.waiters.splice(this.waiters.indexOf(w), 1);
      w.resolve();
    }
    if (this.holding) await new Promise<void>((r) => this.held.push(r));
    const failure = this.failures[0];
    if (failure && failure.times > 0) {
      failure.times -= 1;
      if (failure.times <= 0) this.failures.shift();
      if (failure.mode === 'timeout') return; // never answers; the client's timeout decides
      if (failure.mode === 'malformed') return send(res, 200, this.malformedBody, 'application/json');
      const status = Number(failure.mode);
      return send(
        res,
        status,
        JSON.stringify({ error: { message: `fake ${status}`, code: String(status) } }),
        'application/json',
      );
    }
    try {
      const out = await this.route(rec);
      send(res, out.status, JSON.stringify(out.body), 'application/json');
    } catch (err) {
      send(
        res,
        500,
        JSON.stringify({ error: { message: err instanceof Error ? err.message : String(err) } }),
        'application/json',
      );
    }
  }
}

function send(res: http.ServerResponse, status: number, body: string, type: string): void {
  if (res.destroyed) return;
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}
