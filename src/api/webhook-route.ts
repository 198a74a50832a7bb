import type { FastifyInstance } from 'fastify';
import type { WebhookHandler } from '../channels/channel.js';
import { errorAnswer } from './answer.js';

/**
 * Mounts a channel's webhook at its path, GET and POST. The body reaches the handler as the bytes
 * received (an upstream signs those bytes); a refusal is answered in the API's envelope.
 */
export function mountWebhook(app: FastifyInstance, webhook: WebhookHandler): void {
  void app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/json',
      { parseAs: 'buffer', bodyLimit: webhook.bodyLimit },
      (_request, body, done) => done(null, body),
    );
    scope.route<{ Querystring: Record<string, unknown> }>({
      method: ['GET', 'POST'],
      url: webhook.path,
      handler: async (request, reply) => {
        const answer = await webhook.handle({
          method: request.method === 'GET' ? 'GET' : 'POST',
          query: request.query,
          headers: request.headers,
          body: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
        });
        reply.code(answer.status);
        if ('text' in answer) return reply.type('text/plain; charset=utf-8').send(answer.text);
        if ('json' in answer) return reply.send(answer.json);
        return reply.send(errorAnswer(undefined, answer.refusal));
      },
    });
  });
}
