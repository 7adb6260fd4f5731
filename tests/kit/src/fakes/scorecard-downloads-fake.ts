import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * The Department of Education's College Scorecard download site, as a local HTTP server: a data page that
 * links the files (`/data/`), and the files themselves (`/downloads/<name>`), sent in chunks with their
 * length, as the real site serves them. `truncate` cuts a file short mid-transfer (a dropped connection).
 */
export interface ScorecardDownloadsFake {
  /** Base of the data page, for SCORECARD_DATA_PAGE_URL */
  dataPageUrl: string;
  /** Base of the files, for SCORECARD_DOWNLOAD_URL */
  downloadUrl: string;
  /** Paths requested, in order */
  requests: string[];
  close(): Promise<void>;
}

export async function startScorecardDownloadsFake(opts: {
  /** Files served under /downloads/ */
  files: Record<string, Uint8Array>;
  /** File names the data page links (default: every file) */
  linked?: string[];
  /** Send only this many bytes of every file, then drop the connection */
  truncate?: number;
  chunkSize?: number;
}): Promise<ScorecardDownloadsFake> {
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    requests.push(path);
    if (path === '/data/') {
      const links = (opts.linked ?? Object.keys(opts.files))
        .map((n) => `<li><a href="https://ed-public-download.scorecard.network/downloads/${n}">${n}</a></li>`)
        .join('\n');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html><body><h1>Data</h1><ul>${links}</ul></body></html>`);
      return;
    }
    const name = path.startsWith('/downloads/') ? decodeURIComponent(path.slice('/downloads/'.length)) : '';
    const file = opts.files[name];
    if (!file) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('Not Found');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/zip', 'content-length': file.length });
    const size = opts.chunkSize ?? 16 * 1024;
    const end = opts.truncate ?? file.length;
    let at = 0;
    const next = () => {
      if (at >= end) {
        if (end < file.length) res.destroy();
        else res.end();
        return;
      }
      const chunk = file.subarray(at, Math.min(at + size, end));
      at += chunk.length;
      // A little pause between chunks, as over a real network: the client reads the file piece by piece.
      if (res.write(chunk)) setTimeout(next, 2);
      else res.once('drain', next);
    };
    next();
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;
  return {
    dataPageUrl: `${base}/data/`,
    downloadUrl: `${base}/downloads/`,
    requests,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
