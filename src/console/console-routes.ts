import type { FastifyReply, FastifyRequest } from 'fastify';
import { WirebirdError } from '../domain/errors.js';
import { httpStatusOf } from '../api/http-status.js';
import { problemPage } from './console-auth.js';
import type { Html } from './html.js';

export type Query = Record<string, string | undefined>;
export type PageRequest = FastifyRequest<{ Querystring: Query; Params: Query; Body: Query }>;

export const sendPage = (reply: FastifyReply, page: Html, status = 200) =>
  reply.code(status).type('text/html; charset=utf-8').send(page.text);

/** A page route whose refusals (WirebirdError) are shown as a page, 404 for what is not there. */
export const guardedRoute =
  (run: (request: PageRequest, reply: FastifyReply) => Promise<unknown>) =>
  async (request: PageRequest, reply: FastifyReply) => {
    try {
      return await run(request, reply);
    } catch (err) {
      if (!(err instanceof WirebirdError)) throw err;
      const status = httpStatusOf(err.retCode, 'rest');
      return problemPage(reply, status, 'Cannot do that', err.message);
    }
  };

/** A query value, trimmed and bounded; a longer one is a mistake, answered as one. */
export function param(query: Query, name: string, max = 200): string {
  const raw: unknown = query[name];
  // ?q=a&q=b arrives as an array: one value is expected, so two is a mistake.
  if (raw !== undefined && typeof raw !== 'string')
    throw new WirebirdError('InvalidParameter', `${name} must be given once`);
  const v = (raw ?? '').trim();
  if (v.length > max)
    throw new WirebirdError('InvalidParameter', `${name} must be at most ${max} characters`);
  return v;
}
