// Issue 47.7: every line the embedded run logs from its start is a JSON object a strict reader accepts
// (each key once: a module mounted in the gateway used to add a second "service"), and says which service
// wrote it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnTs, stopProcess, waitForHttp, type RunningProcess } from '../../scripts/lib/stack.ts';
import { parseStrictJson } from './lib/strict-json.ts';

const port = Number(process.env.TEST_LOG_LINES_PORT ?? 17260);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ct-log-lines-'));
let gateway: RunningProcess;

beforeAll(async () => {
  gateway = spawnTs('gateway/src/server.ts', {
    PORT: String(port),
    DATA_DIR: path.join(dataDir, 'pglite'),
    DATABASE_URL: '',
    REDIS_URL: '',
    LOG_LEVEL: 'info',
    NODE_ENV: 'development',
    LOAD_SNAPSHOT: 'false',
    FIREBASE_AUTH_EMULATOR_HOST: process.env.FIREBASE_AUTH_EMULATOR_HOST ?? '',
  });
  await waitForHttp(`http://127.0.0.1:${port}/api/readyz`, 120_000, gateway);
  // A request of each kind the log records: a page, an answer, a refusal.
  await fetch(`http://127.0.0.1:${port}/api/healthz`);
  await fetch(`http://127.0.0.1:${port}/api/get-notes`);
}, 150_000);
afterAll(async () => {
  await stopProcess(gateway);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('log lines', () => {
  it('are strict JSON objects with each key once, each naming its service', () => {
    const lines = gateway
      .output()
      .split('\n')
      .filter((l) => l.trim());
    expect(lines.length).toBeGreaterThan(5);
    for (const line of lines) {
      const entry = parseStrictJson(line) as Record<string, unknown>;
      expect(entry.service, line).toBe('gateway');
      expect(typeof entry.msg, line).toBe('string');
    }
    // The mounted modules' lines say which module wrote them.
    const modules = new Set(lines.map((l) => (JSON.parse(l) as { module?: string }).module).filter(Boolean));
    expect(modules).toContain('colleges');
  });

  it('the strict reader refuses a repeated key', () => {
    expect(() => parseStrictJson('{"service":"gateway","service":"auth","msg":"x"}')).toThrow(/"service"/);
    expect(parseStrictJson('{"a":{"service":1},"service":"b","list":["service","service"]}')).toBeTruthy();
  });
});
