/** A browser's view of the console over plain HTTP: a session cookie, pages and form posts. */
export interface ConsoleClient {
  cookie: string;
  get(path: string): Promise<{ status: number; text: string; headers: Headers }>;
  /** Posts a form with the CSRF token of the last page fetched (or the one given). */
  post(
    path: string,
    form?: Record<string, string>,
    csrf?: string | null,
  ): Promise<{ status: number; text: string; location: string | null }>;
  csrf: string;
}

export async function loginResponse(
  url: string,
  key: string,
  headers: Record<string, string> = {},
) {
  return fetch(`${url}/console/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams({ key }).toString(),
  });
}

export async function consoleLogin(url: string, key: string): Promise<ConsoleClient> {
  const res = await loginResponse(url, key);
  if (res.status !== 303) throw new Error(`login answered ${res.status}`);
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] as string;
  const client: ConsoleClient = {
    cookie,
    csrf: '',
    async get(path) {
      const r = await fetch(url + path, { headers: { cookie }, redirect: 'manual' });
      const text = flat(await r.text());
      const token = /data-csrf="([^"]*)"/.exec(text)?.[1];
      if (token) client.csrf = token;
      return { status: r.status, text, headers: r.headers };
    },
    async post(path, form = {}, csrf) {
      const token = csrf === undefined ? client.csrf : csrf;
      const body = new URLSearchParams({ ...form, ...(token === null ? {} : { _csrf: token }) });
      const r = await fetch(url + path, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: body.toString(),
      });
      return { status: r.status, text: await r.text(), location: r.headers.get('location') };
    },
  };
  await client.get('/console/inbox');
  return client;
}

/** Markup with runs of white space as one space and none between tags, to match on. */
export function flat(markup: string): string {
  return markup.replace(/\s+/g, ' ').replace(/> </g, '><');
}

/** An open /console/inbox/events stream, read until a condition holds (within a time limit). */
export async function openInboxEvents(url: string, cookie: string) {
  const ac = new AbortController();
  const res = await fetch(`${url}/console/inbox/events`, {
    headers: { cookie },
    signal: ac.signal,
  });
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  await reader.read(); // the stream's opening comment: from here on, changes are streamed
  let text = '';
  return {
    contentType: res.headers.get('content-type'),
    async until(done: (text: string) => boolean, what: string, limitMs = 15_000): Promise<string> {
      const timer = setTimeout(() => ac.abort(), limitMs);
      try {
        while (!done(text)) {
          const chunk = await reader.read();
          if (chunk.done) throw new Error(`the event stream ended before ${what}`);
          text += new TextDecoder().decode(chunk.value);
        }
        return text;
      } catch (err) {
        throw ac.signal.aborted ? new Error(`gave up waiting for ${what}`) : err;
      } finally {
        clearTimeout(timer);
      }
    },
    close: () => ac.abort(),
  };
}
