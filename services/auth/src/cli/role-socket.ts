import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/**
 * The embedded app's operator socket. A PGlite folder belongs to one process, so while `npm start` runs,
 * `npm run role` cannot open it: it asks the app, which runs the same command with its own open store.
 * A Unix socket inside the data folder, mode 0600 in a folder only its owner can write, never a TCP port:
 * only the user who runs the app can reach it, as only they could open the folder when it is stopped.
 */

/** Where the embedded app answers role commands: a socket inside its PGlite data folder. */
export function roleSocketPath(dataDir: string): string {
  return path.join(path.resolve(dataDir), 'operator.sock');
}

export interface RoleLines {
  out: (line: string) => void;
  err: (line: string) => void;
}

/** Runs one role command (its arguments as typed) and returns its exit code. */
export type RoleRunner = (args: string[], io: RoleLines) => Promise<number>;

interface Log {
  warn: (o: object, msg: string) => void;
  error: (o: object, msg: string) => void;
}

/** A role command's few arguments fit in far less; a longer request is refused unread. */
const MAX_REQUEST = 4096;
/** How long the command waits for the app's answer (a hung app must not hang the operator). */
const ANSWER_TIMEOUT_MS = 30_000;

/** Parses `{"args": [...]}`: a few strings, or null. */
function requestArgs(line: string | null): string[] | null {
  try {
    const args = (JSON.parse(line ?? '') as { args?: unknown }).args;
    return Array.isArray(args) && args.length <= 8 && args.every((a) => typeof a === 'string') ? args : null;
  } catch {
    return null;
  }
}

/** Answers one connection: the command's lines as they come, then its exit code. */
function answer(conn: net.Socket, run: RoleRunner, log: Log) {
  let input = '';
  conn.setEncoding('utf8');
  conn.on('error', () => {}); // the command went away: nobody left to tell
  const onData = (chunk: string) => {
    input += chunk;
    const nl = input.indexOf('\n');
    if (nl < 0 && input.length <= MAX_REQUEST) return;
    conn.off('data', onData);
    void respond(conn, requestArgs(nl < 0 ? null : input.slice(0, nl)), run, log);
  };
  conn.on('data', onData);
}

async function respond(conn: net.Socket, args: string[] | null, run: RoleRunner, log: Log) {
  const send = (message: object) => conn.write(`${JSON.stringify(message)}\n`);
  let exit = 1;
  if (!args) send({ err: 'The app did not understand the request.' });
  else {
    try {
      exit = await run(args, { out: (line) => send({ out: line }), err: (line) => send({ err: line }) });
    } catch (err) {
      log.error({ err }, 'role command failed');
      send({ err: `The role command failed in the app: ${(err as Error).message}` });
    }
  }
  conn.end(`${JSON.stringify({ exit })}\n`);
}

/**
 * Serves role commands on the data folder's socket until `close()` (which removes it). Null, with a warning,
 * when it cannot be served safely: the folder is another user's, or the socket cannot be made there.
 */
export async function serveRoleCommands(
  dataDir: string,
  run: RoleRunner,
  log: Log,
): Promise<{ close(): Promise<void> } | null> {
  const dir = path.resolve(dataDir);
  const socketPath = roleSocketPath(dir);
  const notServed = (why: string, err?: unknown) => {
    log.warn(
      { err },
      `npm run role cannot reach this app (${why}): stop the app to change roles in the embedded store`,
    );
    return null;
  };
  const stat = fs.statSync(dir);
  if (!process.getuid || stat.uid !== process.getuid()) return notServed(`${dir} is not this user's`);
  // Nobody else may put a socket of their own in its place for the command to talk to.
  if (stat.mode & 0o022) fs.chmodSync(dir, stat.mode & 0o755);
  // One left by a run that crashed: this process owns the folder now.
  if (fs.lstatSync(socketPath, { throwIfNoEntry: false })?.isSocket()) fs.rmSync(socketPath);

  const server = net.createServer((conn) => answer(conn, run, log));
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      // The socket is created (synchronously) owner-only: no moment where another user could connect.
      const umask = process.umask(0o077);
      try {
        server.listen(socketPath, () => resolve());
      } finally {
        process.umask(umask);
      }
    });
  } catch (err) {
    return notServed(`no socket at ${socketPath}`, err);
  }
  fs.chmodSync(socketPath, 0o600);
  server.on('error', (err) => log.error({ err }, 'operator socket failed'));
  return {
    close: () =>
      new Promise<void>((resolve) =>
        server.close(() => {
          fs.rmSync(socketPath, { force: true });
          resolve();
        }),
      ),
  };
}

/** Whether an app answers on the socket (a socket file left by an app that crashed does not). */
export function roleSocketAnswers(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const conn = net.connect(socketPath);
    conn.once('connect', () => {
      conn.destroy();
      resolve(true);
    });
    conn.once('error', () => resolve(false));
  });
}

/**
 * Runs a role command in the app that serves `socketPath`, passing on its lines as they come; resolves to
 * its exit code. Rejects, saying why, when nothing answers there: a socket left by an app that crashed, an
 * app that hangs, or a socket that is not this user's own.
 */
export function sendRoleCommand(socketPath: string, args: string[], io: RoleLines): Promise<number> {
  const stat = fs.lstatSync(socketPath, { throwIfNoEntry: false });
  if (!stat?.isSocket() || !process.getuid || stat.uid !== process.getuid())
    return Promise.reject(new Error(`${socketPath} is not a socket of this user`));
  return new Promise((resolve, reject) => {
    const conn = net.connect(socketPath);
    let buffered = '';
    let exit: number | null = null;
    conn.setEncoding('utf8');
    conn.setTimeout(ANSWER_TIMEOUT_MS, () =>
      conn.destroy(new Error(`no answer within ${ANSWER_TIMEOUT_MS / 1000} s`)),
    );
    conn.once('connect', () => conn.write(`${JSON.stringify({ args })}\n`));
    conn.on('data', (chunk: string) => {
      buffered += chunk;
      for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        let message: { out?: unknown; err?: unknown; exit?: unknown };
        try {
          message = JSON.parse(line) as typeof message;
        } catch {
          conn.destroy(new Error('the answer was not understood'));
          return;
        }
        if (typeof message.out === 'string') io.out(message.out);
        if (typeof message.err === 'string') io.err(message.err);
        if (typeof message.exit === 'number') exit = message.exit;
      }
    });
    conn.once('error', (err: NodeJS.ErrnoException) =>
      reject(new Error(err.code === 'ECONNREFUSED' ? 'nothing listens there' : err.message)),
    );
    conn.once('close', () =>
      exit === null ? reject(new Error('the app closed the connection without answering')) : resolve(exit),
    );
  });
}
