import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError, apiText, setTokenSource } from './client';

// What vite.config.ts defines from the route table, for the routes these tests call.
Object.assign(globalThis, {
  __API_ROUTES__: {
    addCollege: ['POST', '/add-college', 'body'],
    searchCollege: ['GET', '/search-college', 'query'],
    getPromptGroups: ['GET', '/get-prompt-groups', null],
    deadlinesIcs: ['GET', '/download-deadlines.ics', 'query'],
  },
});

function answer(status: number, body: unknown) {
  const fetch = vi.fn(
    async (_url: string, _init: RequestInit) => new Response(JSON.stringify(body), { status }),
  );
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

describe('the typed API client', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('sends a body route as JSON with the ID token, and answers with the reply and its status', async () => {
    setTokenSource(
      async () => 'tok',
      () => {},
    );
    const fetch = answer(202, { success: true, message: 'ok', data: { state: 'queued' } });
    const reply = await api.addCollege({ name: 'Reed College' });
    expect(reply).toMatchObject({ success: true, status: 202 });
    expect(fetch).toHaveBeenCalledWith('/api/add-college', {
      method: 'POST',
      headers: {
        accept: 'application/json',
        authorization: 'Bearer tok',
        'content-type': 'application/json',
      },
      body: JSON.stringify({ name: 'Reed College' }),
      signal: null,
    });
  });

  it('puts a query route’s input in the query string, and a route without input takes the options first', async () => {
    setTokenSource(
      async () => null,
      () => {},
    );
    const fetch = answer(200, { success: true });
    const { signal } = new AbortController();
    await api.searchCollege({ name: 'St. John’s & Co' }, { signal });
    await api.getPromptGroups({ signal });
    expect(fetch.mock.calls.map(([url, init]) => [url, init.signal])).toEqual([
      ['/api/search-college?name=St.+John%E2%80%99s+%26+Co', signal],
      ['/api/get-prompt-groups', signal],
    ]);
  });

  it('turns { success: false, message, code } into an ApiError and reports a refused token', async () => {
    const unauthorized = vi.fn();
    setTokenSource(async () => 'old', unauthorized);
    answer(401, { success: false, message: 'Session expired', code: 'UNAUTHENTICATED' });
    const err = await api.searchCollege({ name: 'x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ message: 'Session expired', status: 401, code: 'UNAUTHENTICATED' });
    expect(unauthorized).toHaveBeenCalledWith('Session expired');
  });

  it('reads a text route as text with its own accept header', async () => {
    setTokenSource(
      async () => null,
      () => {},
    );
    const fetch = vi.fn(async (_url: string, _init: RequestInit) => new Response('BEGIN:VCALENDAR'));
    vi.stubGlobal('fetch', fetch);
    expect(await apiText('deadlinesIcs', 'text/calendar')).toBe('BEGIN:VCALENDAR');
    expect(fetch.mock.calls[0]?.[1].headers).toEqual({ accept: 'text/calendar' });
  });
});
