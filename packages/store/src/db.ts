import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';

export interface QueryResult<T> {
  rows: T[];
  rowCount: number;
}

/** Anything that runs SQL: the database itself or an open transaction. */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<QueryResult<T>>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export interface Db extends Queryable {
  readonly kind: 'postgres' | 'pglite';
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Cheap round trip for readiness checks. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface DbOptions {
  /** A real Postgres server; when absent, in-process PGlite is used. */
  url?: string | undefined;
  /** PGlite data folder (created if missing). `memory://` keeps it in memory. */
  dataDir?: string | undefined;
  /** Pool size for a real server. */
  poolMax?: number | undefined;
  /** Application name shown in pg_stat_activity. */
  applicationName?: string | undefined;
}

// Same value types from both engines: bigint counts as numbers, numerics as numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => Number(v));

/** Statement names by SQL text (see `preparedName`); the same for every pool of the process. */
const preparedNames = new Map<string, string>();
/** More distinct statements than the code has means SQL built per call: those are not kept. */
const MAX_PREPARED = 2000;

/**
 * The name a parameterised query is prepared under on each Postgres connection: the first run on a
 * connection parses it, later runs only bind and execute it, so neither side parses (nor the server plans,
 * once it settles on a generic plan) the same statement on every request (docs/performance.md).
 */
function preparedName(sql: string): string | undefined {
  let name = preparedNames.get(sql);
  if (name === undefined && preparedNames.size < MAX_PREPARED) {
    name = `ct_${preparedNames.size + 1}`;
    preparedNames.set(sql, name);
  }
  return name;
}

/** Opens the store: Postgres when a URL is given, otherwise PGlite persisted to `dataDir`. */
export async function openDb(opts: DbOptions): Promise<Db> {
  if (opts.url) return openPostgres(opts.url, opts.poolMax ?? 10, opts.applicationName);
  return openPglite(opts.dataDir ?? '.data/pglite');
}

async function openPostgres(url: string, max: number, applicationName?: string): Promise<Db> {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    application_name: applicationName,
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 30_000,
  });
  // An idle client losing its server (restart) must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  // Only the pool's single statements are prepared. A transaction may write thousands of rows into a table
  // that was nearly empty when its statements were first planned (the first start's snapshot load): a
  // generic plan cached then (seq scans under a nested loop) stays for the whole transaction, and each
  // batch grows slower than the last. Unnamed statements are planned with the table as it is.
  const run = async <T>(
    q: pg.Pool | pg.PoolClient,
    sql: string,
    params: readonly unknown[] | undefined,
    prepare: boolean,
  ) => {
    const name = prepare && params?.length ? preparedName(sql) : undefined;
    const r = await (name
      ? q.query({ name, text: sql, values: params as unknown[] })
      : q.query(sql, params as unknown[] | undefined));
    return { rows: r.rows as T[], rowCount: r.rowCount ?? 0 };
  };
  return {
    kind: 'postgres',
    query: (sql, params) => run(pool, sql, params, true),
    async exec(sql) {
      await pool.query(sql);
    },
    async transaction(fn) {
      const client = await pool.connect();
      // The pool stops listening for a client's errors while it is checked out: without a listener, the
      // server going away mid-transaction is an uncaught 'error' event that kills the process. The
      // failing query already rejects, so the event itself needs no handling.
      const onError = () => {};
      client.on('error', onError);
      try {
        await client.query('BEGIN');
        const result = await fn({
          query: (sql, params) => run(client, sql, params, false),
          exec: async (sql) => void (await client.query(sql)),
        });
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        client.removeListener('error', onError);
        client.release();
      }
    },
    async ping() {
      await pool.query('SELECT 1');
    },
    close: () => pool.end(),
  };
}

async function openPglite(dataDir: string): Promise<Db> {
  const [{ PGlite }, { pg_trgm }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
  ]);
  const inMemory = dataDir.startsWith('memory://');
  const dir = path.resolve(dataDir);
  if (!inMemory) ownerOnlyFiles();
  const releaseLock = inMemory ? () => {} : lockDataDir(dir);
  let db: Awaited<ReturnType<typeof PGlite.create>>;
  try {
    // A folder an earlier version left readable or writable by others is repaired before it is read.
    if (!inMemory) repairModes(dir);
    db = await PGlite.create(inMemory ? undefined : dir, { extensions: { pg_trgm } });
    // PGlite sets each file's mode itself (0666, whatever the umask): taken back to the owner's.
    if (!inMemory) repairModes(dir);
  } catch (err) {
    releaseLock();
    throw err;
  }
  type PgliteLike = {
    query: <T>(sql: string, params?: unknown[]) => Promise<{ rows: T[]; affectedRows?: number }>;
    exec: (sql: string) => Promise<unknown>;
  };
  const run = async <T>(q: PgliteLike, sql: string, params?: readonly unknown[]) => {
    const r = await q.query<T>(sql, params as unknown[] | undefined);
    return { rows: r.rows, rowCount: r.affectedRows ?? r.rows.length };
  };
  let closed = false;
  return {
    kind: 'pglite',
    query: (sql, params) => run(db, sql, params),
    exec: async (sql) => void (await db.exec(sql)),
    transaction: (fn) =>
      db.transaction((tx: PgliteLike) =>
        fn({ query: (sql, params) => run(tx, sql, params), exec: async (sql) => void (await tx.exec(sql)) }),
      ),
    async ping() {
      if (closed) throw new Error('store is closed');
      await db.query('SELECT 1');
    },
    async close() {
      if (closed) return;
      closed = true;
      await db.close();
      if (!inMemory) repairModes(dir);
      releaseLock();
    },
  };
}

/**
 * Files this process creates from now on are its user's alone (umask 077): the embedded store holds
 * every student's data. Only the main thread may set the umask; a worker thread keeps the process's.
 */
function ownerOnlyFiles(): void {
  try {
    process.umask(0o077);
  } catch {
    /* a worker thread: the main thread's umask holds */
  }
}

/**
 * Takes every permission of group and others off a data folder and everything in it (the folder 0700,
 * files 0600 at most). Symbolic links are left alone (their modes mean nothing, and they are not followed).
 */
export function repairModes(dir: string): void {
  const fix = (p: string, st: fs.Stats) => {
    if ((st.mode & 0o077) !== 0) fs.chmodSync(p, st.mode & 0o700);
  };
  const walk = (d: string) => {
    for (const name of fs.readdirSync(d)) {
      const p = path.join(d, name);
      let st: fs.Stats;
      try {
        st = fs.lstatSync(p);
      } catch {
        continue; // removed meanwhile
      }
      if (st.isSymbolicLink()) continue;
      fix(p, st);
      if (st.isDirectory()) walk(p);
    }
  };
  fix(dir, fs.lstatSync(dir));
  walk(dir);
}

/** Thrown when another live process owns a PGlite data folder. */
export class DataDirInUseError extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(
      `The data folder ${dir} is in use by process ${pid}. Stop that process first, or set DATABASE_URL to use a Postgres server.`,
    );
    this.name = 'DataDirInUseError';
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * PGlite does not lock its folder and a second opener can corrupt it, so one process claims it with a
 * pid file; a stale claim (its process gone) is taken over.
 */
function lockDataDir(dir: string): () => void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const lock = path.join(dir, '..', `${path.basename(dir)}.lock`);
  for (let i = 0; i < 2; i++) {
    try {
      fs.writeFileSync(lock, String(process.pid), { flag: 'wx', mode: 0o600 });
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        try {
          if (fs.readFileSync(lock, 'utf8') === String(process.pid)) fs.unlinkSync(lock);
        } catch {
          /* already gone */
        }
      };
      process.once('exit', release);
      return release;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number(fs.readFileSync(lock, 'utf8'));
      if (pid && alive(pid)) throw new DataDirInUseError(dir, pid);
      fs.unlinkSync(lock);
    }
  }
  throw new Error(`could not lock ${dir}`);
}
