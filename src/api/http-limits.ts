import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Config } from '../config/config.js';
import { WirebirdError } from '../domain/errors.js';
import { errorAnswer } from './answer.js';

export type HttpLimits = Config['http'];

/**
 * Fastify's and Node's server options from the configured limits: how long a client may take
 * to send its headers and its whole request, and how long an idle keep-alive socket is kept.
 * Node checks the first two on an interval, so the interval follows the shorter of them.
 */
export function serverOptions(limits: HttpLimits) {
  const check = Math.max(100, Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) / 2);
  return {
    requestTimeout: limits.requestTimeoutMs,
    connectionTimeout: limits.idleTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    http: { headersTimeout: limits.headersTimeoutMs, connectionsCheckingInterval: check },
  };
}

/** A raw HTTP/1.1 answer in the envelope, for when no request could be read (then closed). */
function rawAnswer(status: number, reason: string, err: WirebirdError): string {
  const body = JSON.stringify(errorAnswer(undefined, err));
  return (
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
  );
}

/** What Node's HTTP parser refused, in the envelope: never Node's bare text. */
function clientErrorAnswer(code: string | undefined): string {
  switch (code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return rawAnswer(
        408,
        'Request Timeout',
        new WirebirdError(
          'MalformedRequest',
          'the request did not arrive whole in time; send the headers and body without pausing',
        ),
      );
    case 'HPE_HEADER_OVERFLOW':
      return rawAnswer(
        431,
        'Request Header Fields Too Large',
        new WirebirdError(
          'LimitExceeded',
          "the request's headers are larger than 16 KiB; an API key is under 100 characters",
        ),
      );
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
    case 'HPE_INVALID_TRANSFER_ENCODING':
      return rawAnswer(
        400,
        'Bad Request',
        new WirebirdError(
          'MalformedRequest',
          'Content-Length and Transfer-Encoding must not both be sent (and Transfer-Encoding may only be chunked)',
        ),
      );
    case 'HPE_INVALID_CONTENT_LENGTH':
      return rawAnswer(
        400,
        'Bad Request',
        new WirebirdError(
          'MalformedRequest',
          'Content-Length is not a valid length, or is sent twice with different values',
        ),
      );
    default:
      return rawAnswer(
        400,
        'Bad Request',
        new WirebirdError(
          'MalformedRequest',
          'the request is not valid HTTP/1.1 (a body longer than its Content-Length reads as a broken next request)',
        ),
      );
  }
}

/** Fastify's clientErrorHandler: the envelope, then the connection is closed. */
export function answerClientError(err: Error & { code?: string }, socket: Socket): void {
  // A reset connection, or one already closed, has nobody left to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) socket.end(clientErrorAnswer(err.code));
  else socket.destroy();
}

/**
 * Caps connections: in total (Node refuses past server.maxConnections) and per client address
 * (answered 429 in the envelope, then closed), so one client cannot hold every socket.
 */
export function limitConnections(server: Server, limits: HttpLimits): void {
  server.maxConnections = limits.maxConnections;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const n = (open.get(address) ?? 0) + 1;
    open.set(address, n);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left === 0) open.delete(address);
      else open.set(address, left);
    });
    if (n > limits.maxConnectionsPerAddress) {
      const err = new WirebirdError(
        'RateLimited',
        `more than ${limits.maxConnectionsPerAddress} connections from one address; reuse connections (keep-alive) instead of opening more`,
      );
      socket.end(rawAnswer(429, 'Too Many Requests', err));
    }
  });
}
