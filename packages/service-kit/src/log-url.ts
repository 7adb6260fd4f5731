/**
 * What a request's log line says of its URL: one small function, so that whoever changes how often a line
 * is written (sampling, access logs) keeps what each line carries.
 *
 * By default the path only, with each query value dropped (`?filterUserId=…&limit=…`): query strings carry
 * uids, college names and what students typed, which would outlive a deleted account in the logs. With
 * LOG_FULL_URLS the query is kept whole (for a debugging session, not for production). Either way,
 * capability tokens are masked.
 */

/** The characters of a capability token (base64url, as the calendar link's 43-character secret). */
const TOKEN_RUN = /[A-Za-z0-9_-]{40,}/g;
/** A percent-encoded token character: decoded before matching, so `%41` cannot split a token's run. */
const ENCODED_TOKEN_CHAR = /%(?:[46][1-9A-Fa-f]|[57][0-9Aa]|3[0-9]|2[Dd]|5[Ff])/g;
const decodeTokenChar = (m: string) => String.fromCharCode(parseInt(m.slice(1), 16));

/**
 * Masks capability tokens in a URL (a run of 40 or more of a token's characters, such as the secret of a
 * private calendar feed link), so that a link that grants access never lands in the logs. The run is
 * matched on the token's own characters, whatever precedes or follows it (`/…%00`, `;x`, `.ics`), and on
 * percent-encoded ones (`%41` for `A`) as the router decodes them.
 */
export function redactUrlSecrets(url: string): string {
  return url.replace(ENCODED_TOKEN_CHAR, decodeTokenChar).replace(TOKEN_RUN, '[redacted]');
}

/** The URL as a log line carries it: see the module's comment. */
export function logUrl(url: string, full = false): string {
  const q = url.indexOf('?');
  if (full || q < 0) return redactUrlSecrets(url);
  const names = url
    .slice(q + 1)
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const eq = pair.indexOf('=');
      return `${eq < 0 ? pair : pair.slice(0, eq)}=…`;
    });
  const path = redactUrlSecrets(url.slice(0, q));
  return names.length ? `${path}?${redactUrlSecrets(names.join('&'))}` : path;
}
