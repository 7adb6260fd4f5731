import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { parse, type Parser } from 'csv-parse';
import { Unzip, UnzipInflate, UnzipPassThrough } from 'fflate';

/** The Department of Education's page listing the College Scorecard downloads. */
export const DEFAULT_SCORECARD_DATA_PAGE_URL = 'https://collegescorecard.ed.gov/data/';
/** Where the Scorecard's download files are served (the data page links here). */
export const DEFAULT_SCORECARD_DOWNLOAD_URL = 'https://ed-public-download.scorecard.network/downloads/';

/** Thrown for a source that cannot be read as the official institution CSV; the message is for the operator. */
export class ImportSourceError extends Error {}

export interface ReadProgress {
  /** Bytes read from the source (the zip or CSV as stored or downloaded) */
  bytes: number;
  /** Its size when known */
  total: number | null;
}

export interface OpenedSource {
  /** The institution CSV's bytes: the file itself, or the CSV unpacked from the zip as it streams in. */
  csv: Readable;
  /** The CSV's file name (inside the zip, or the source's own). */
  name: string;
  /** Whether the source was a zip archive (known once the first bytes were read). */
  zipped(): boolean;
  /** sha256 (hex) of every byte read from the source; the file's checksum once `csv` has ended. */
  sha256(): string;
  bytesRead(): number;
  /** The release date (YYYY-MM-DD) the official file name carries, if it does. */
  release: string | null;
}

const RELEASE = /Most-Recent-Cohorts-Institution_(\d{2})(\d{2})(\d{4})/i;

/** "Most-Recent-Cohorts-Institution_06102026.zip" → "2026-06-10"; null for other names. */
export function releaseOf(name: string): string | null {
  const m = RELEASE.exec(name);
  return m ? `${m[3]}-${m[1]}-${m[2]}` : null;
}

async function openRaw(source: string): Promise<{ stream: Readable; size: number | null }> {
  if (/^https?:\/\//i.test(source)) {
    let res: Response;
    try {
      res = await fetch(source);
    } catch (err) {
      throw new ImportSourceError(
        `Could not download ${source}: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    if (!res.ok || !res.body) {
      throw new ImportSourceError(`Downloading ${source} failed (HTTP ${res.status}).`);
    }
    const len = Number(res.headers.get('content-length'));
    return {
      stream: Readable.fromWeb(res.body as Parameters<typeof Readable.fromWeb>[0]),
      size: Number.isFinite(len) && len > 0 ? len : null,
    };
  }
  if (!fs.existsSync(source)) throw new ImportSourceError(`No such file: ${source}`);
  return { stream: fs.createReadStream(source), size: fs.statSync(source).size };
}

const isZip = (b: Uint8Array) => b.length >= 4 && b[0] === 0x50 && b[1] === 0x4b && b[2] === 3 && b[3] === 4;

/**
 * Opens the official College Scorecard institution file from a path or an http(s) URL, as a CSV or as the
 * zip the Department of Education publishes (recognised by its first bytes). Everything is streamed: a
 * zip's CSV is unpacked chunk by chunk as the download arrives, never held whole in memory or on disk.
 * Every byte read is counted (for a progress bar) and hashed (the checksum printed at the end).
 */
export async function openScorecardSource(
  source: string,
  onProgress?: (p: ReadProgress) => void,
): Promise<OpenedSource> {
  const { stream, size } = await openRaw(source);
  const hash = createHash('sha256');
  let bytes = 0;
  let zipped = false;
  let csvName = path.basename(/^https?:\/\//i.test(source) ? new URL(source).pathname : source);
  const sourceName = csvName;

  async function* raw(): AsyncGenerator<Uint8Array> {
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        hash.update(chunk);
        bytes += chunk.length;
        onProgress?.({ bytes, total: size });
        yield chunk;
      }
    } catch (err) {
      if (err instanceof ImportSourceError) throw err;
      throw new ImportSourceError(
        `Reading ${source} failed after ${(bytes / 1e6).toFixed(1)} MB: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  }

  /** The CSV entry of a zip, unpacked as the archive's bytes arrive (the first .csv entry is taken). */
  async function* unzipped(chunks: AsyncGenerator<Uint8Array>, first: Uint8Array): AsyncGenerator<Buffer> {
    const out: Uint8Array[] = [];
    let found = false;
    let ended = false;
    let failure: Error | null = null;
    const unzip = new Unzip((file) => {
      if (found || !/\.csv$/i.test(file.name) || file.name.startsWith('__MACOSX/')) return;
      found = true;
      csvName = path.basename(file.name);
      file.ondata = (err, data, final) => {
        if (err) failure = err;
        else {
          if (data.length) out.push(data);
          if (final) ended = true;
        }
      };
      file.start();
    });
    unzip.register(UnzipInflate);
    unzip.register(UnzipPassThrough);
    const push = (chunk: Uint8Array, final: boolean) => {
      try {
        unzip.push(chunk, final);
      } catch (err) {
        failure = err instanceof Error ? err : new Error(String(err));
      }
      if (failure) {
        throw new ImportSourceError(
          `The zip archive ${sourceName} could not be unpacked: ${failure.message}`,
        );
      }
    };
    push(first, false);
    for (;;) {
      while (out.length) yield Buffer.from(out.shift()!);
      const next = await chunks.next();
      if (next.done) break;
      // Past the CSV, the rest of the archive is still read, so the checksum covers the whole file.
      if (!ended) push(next.value, false);
    }
    if (!ended) push(new Uint8Array(0), true);
    while (out.length) yield Buffer.from(out.shift()!);
    if (!found) throw new ImportSourceError(`The zip archive ${sourceName} holds no CSV file.`);
    if (!ended) {
      throw new ImportSourceError(
        `The zip archive ${sourceName} ended before its CSV did (an incomplete download?).`,
      );
    }
  }

  async function* csv(): AsyncGenerator<Uint8Array> {
    const chunks = raw();
    const first = await chunks.next();
    if (first.done) return;
    if (isZip(first.value)) {
      zipped = true;
      yield* unzipped(chunks, first.value);
      return;
    }
    yield first.value;
    yield* chunks;
  }

  return {
    csv: Readable.from(csv(), { objectMode: false }),
    get name() {
      return csvName;
    },
    zipped: () => zipped,
    sha256: () => hash.copy().digest('hex'),
    bytesRead: () => bytes,
    release: releaseOf(sourceName),
  };
}

/**
 * The newest Most-Recent-Cohorts institution file: the data page is read for the file names it links
 * (`Most-Recent-Cohorts-Institution_MMDDYYYY.zip`), the newest date wins, and the file is fetched from
 * the download site (`downloadUrl`, configurable for mirrors and tests).
 */
export async function latestScorecardFile(opts: {
  dataPageUrl?: string | undefined;
  downloadUrl?: string | undefined;
}): Promise<{ url: string; fileName: string; release: string }> {
  const page = opts.dataPageUrl ?? DEFAULT_SCORECARD_DATA_PAGE_URL;
  const base = opts.downloadUrl ?? DEFAULT_SCORECARD_DOWNLOAD_URL;
  const manual =
    'Download the newest "Most Recent Institution-Level Data" file yourself and pass its path or URL: ' +
    'npm run import:scorecard -- <path-or-url>';
  let html: string;
  try {
    const res = await fetch(page, { signal: AbortSignal.timeout(30_000) });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    html = await res.text();
  } catch (err) {
    throw new ImportSourceError(
      `Could not read the College Scorecard data page ${page} (${err instanceof Error ? err.message : String(err)}). ${manual}`,
    );
  }
  const names = [...html.matchAll(/Most-Recent-Cohorts-Institution_(\d{8})\.zip/gi)].map((m) => m[0]);
  const newest = names
    .map((fileName) => ({ fileName, release: releaseOf(fileName)! }))
    .sort((a, b) => b.release.localeCompare(a.release))[0];
  if (!newest) {
    throw new ImportSourceError(
      `The data page ${page} links no Most-Recent-Cohorts institution file. ${manual}`,
    );
  }
  return { ...newest, url: new URL(newest.fileName, base.endsWith('/') ? base : `${base}/`).toString() };
}

/**
 * The CSV's rows as objects by column name. A failure of the source (a dropped download, a broken zip)
 * ends the iteration with that error instead of leaving the parser waiting.
 */
export function csvRows(src: OpenedSource): Parser {
  const parser = parse({
    columns: true,
    bom: true,
    skip_empty_lines: true,
    relax_column_count: true,
    trim: true,
  });
  src.csv.once('error', (err) => parser.destroy(err));
  return src.csv.pipe(parser);
}
