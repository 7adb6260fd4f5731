/* global AbortSignal */
// Container health check (compose `healthcheck`, Docker HEALTHCHECK): exits 0 when
// GET http://127.0.0.1:$PORT<path> answers 2xx within 3 s. Usage: node /app/healthcheck.mjs /readyz
const path = process.argv[2] ?? '/healthz';
const port = process.env.PORT ?? '8080';
try {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(3000) });
  process.exit(res.ok ? 0 : 1);
} catch {
  process.exit(1);
}
