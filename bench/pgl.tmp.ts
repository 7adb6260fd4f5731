import { openDb } from '@ct/store';
const db = await openDb({ dataDir: process.argv[2]! });
const u = (await db.query<{ user_id: string }>('SELECT user_id FROM user_data.user_college LIMIT 1')).rows[0]!.user_id;
async function time(label: string, fn: () => Promise<unknown>, n = 2000) {
  for (let i = 0; i < 300; i++) await fn();
  const t = performance.now();
  for (let i = 0; i < n; i++) await fn();
  console.log(label.padEnd(40), ((performance.now() - t) / n * 1000).toFixed(0), 'µs');
}
for (let k = 0; k < 2; k++) {
await time('select 1 param', () => db.query('SELECT $1::int', [1]));
await time('names 10 rows', () => db.query(`SELECT college_key, college_name, added_at FROM user_data.user_college WHERE user_id = $1 ORDER BY added_at, id`, [u]));
await time('names no order', () => db.query(`SELECT college_key, college_name, added_at FROM user_data.user_college WHERE user_id = $1`, [u]));
await time('count', () => db.query(`SELECT count(*) FROM user_data.user_college WHERE user_id = $1`, [u]));
await time('keys only', () => db.query(`SELECT college_key FROM user_data.user_college WHERE user_id = $1`, [u]));
await time('names, no param', () => db.query(`SELECT college_key, college_name, added_at FROM user_data.user_college WHERE user_id = '${u}'`));
}
console.log((await db.query(`EXPLAIN ANALYZE SELECT college_key, college_name, added_at FROM user_data.user_college WHERE user_id = $1 ORDER BY added_at, id`, [u])).rows);
await db.close();
