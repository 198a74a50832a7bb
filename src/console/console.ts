import type { FastifyInstance } from 'fastify';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { registerConsoleAuth } from './console-auth.js';
import type { ConsoleDeps } from './console-deps.js';
import { registerConsolePages } from './console-pages.js';
import { registerSessions } from './console-session.js';
import { registerInboxEvents } from './inbox-events.js';
import { registerKeysPage } from './keys-page.js';
import { registerAuditPage } from './audit-page.js';

// The hand-written client script and stylesheet, read once from the source tree (the build
// compiles TypeScript only; these are served as written).
const ASSET_DIR = join(import.meta.dirname, '..', '..', '..', 'src', 'console', 'assets');
const ASSETS: Record<string, string> = {
  'app.js': 'text/javascript; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
};

/** The web console at /console: server-rendered pages, a small script, no CDN. */
export function registerConsole(app: FastifyInstance, deps: ConsoleDeps): void {
  const files = new Map(
    Object.entries(ASSETS).map(([name, type]) => [
      name,
      { type, body: readFileSync(join(ASSET_DIR, name)) },
    ]),
  );
  app.register(async (scoped) => {
    // Forms post url-encoded bodies; only the console takes them.
    scoped.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 16 * 1024 },
      (_request, body, done) => done(null, formFields(body as string)),
    );
    const ctx = deps;
    // The plugins' hooks first: the auth hook reads the session they restore.
    await registerSessions(scoped, deps);
    registerConsoleAuth(scoped, ctx);
    scoped.get<{ Params: { name: string } }>('/console/assets/:name', async (request, reply) => {
      const file = files.get(request.params.name);
      if (!file) return reply.code(404).type('text/plain').send('not found');
      return reply.type(file.type).header('cache-control', 'no-cache').send(file.body);
    });
    registerConsolePages(scoped, ctx);
    registerKeysPage(scoped, ctx);
    registerAuditPage(scoped, ctx);
    registerInboxEvents(scoped, ctx);
  });
}

/** A form's fields; a name given more than once (checkboxes) keeps every value, in order. */
function formFields(body: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of new URLSearchParams(body)) {
    const seen = out[name];
    out[name] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
  }
  return out;
}
