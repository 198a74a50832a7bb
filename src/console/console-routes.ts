import type { FastifyReply, FastifyRequest } from 'fastify';
import { WirebirdError } from '../domain/errors.js';
import { httpStatusOf } from '../http/http-status.js';
import { problemPage } from './console-auth.js';
import type { Html } from './html.js';

// What Fastify hands a page: read through a form's schema (forms.ts) before use.
type Raw = Record<string, string | undefined>;
export type PageRequest = FastifyRequest<{ Querystring: Raw; Params: Raw; Body: Raw }>;

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
