// Preloaded (`node --import`) by tests/data/no-shared-data.test.ts into a test run: any file access under
// the shared data folder beside the checkout fails, as it would in a fresh clone that has none, and is
// written down in SHARED_GUARD_LOG (in case the code under test swallows the error).
import { Buffer } from 'node:buffer';
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const shared = path.resolve(root, '../shared');
const log = process.env.SHARED_GUARD_LOG;
const appendFileSync = fs.appendFileSync;

function check(p) {
  let s;
  if (typeof p === 'string') s = p;
  else if (p instanceof URL) s = p.protocol === 'file:' ? fileURLToPath(p) : null;
  else if (Buffer.isBuffer(p)) s = p.toString();
  if (!s) return;
  const abs = path.resolve(s);
  if (abs === shared || abs.startsWith(shared + path.sep)) {
    if (log) appendFileSync(log, `${abs}\n`);
    const err = new Error(
      `ENOENT: no such file or directory (no shared data folder in a fresh clone), '${abs}'`,
    );
    err.code = 'ENOENT';
    throw err;
  }
}

const guarded = (obj, names) => {
  for (const name of names) {
    const original = obj[name];
    if (typeof original !== 'function') continue;
    const wrapped = function (p, ...rest) {
      check(p);
      return original.call(this, p, ...rest);
    };
    // e.g. realpathSync.native
    for (const key of Object.keys(original)) wrapped[key] = original[key];
    obj[name] = wrapped;
  }
};
guarded(fs, [
  'readFileSync',
  'readFile',
  'openSync',
  'open',
  'createReadStream',
  'existsSync',
  'statSync',
  'stat',
  'lstatSync',
  'lstat',
  'readdirSync',
  'readdir',
  'accessSync',
  'access',
  'opendirSync',
  'opendir',
  'realpathSync',
  'realpath',
]);
guarded(fs.promises, ['readFile', 'open', 'stat', 'lstat', 'readdir', 'access', 'opendir', 'realpath']);
syncBuiltinESMExports();
