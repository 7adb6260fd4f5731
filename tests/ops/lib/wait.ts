/** Polls `fn` until it returns something other than undefined/false, or fails after `ms`. */
export function until<T>(
  fn: () => Promise<T | undefined | false> | T | undefined | false,
  ms = 20_000,
  what = 'condition',
): Promise<T> {
  const start = Date.now();
  return new Promise((resolve, reject) => {
    const tick = async () => {
      try {
        const v = await fn();
        if (v !== undefined && v !== false) return resolve(v);
      } catch (err) {
        if (Date.now() - start > ms) return reject(err instanceof Error ? err : new Error(String(err)));
      }
      if (Date.now() - start > ms) return reject(new Error(`timed out waiting for ${what}`));
      setTimeout(tick, 50);
    };
    void tick();
  });
}
