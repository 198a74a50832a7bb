import pino, { type Logger } from 'pino';

/** One pino logger for the process; secrets are redacted wherever they could appear. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        '*.key',
        '*.accessToken',
        '*.password',
      ],
      censor: '[redacted]',
    },
  });
}
