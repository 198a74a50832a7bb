import pino, { type DestinationStream, type Logger } from 'pino';

/** One pino logger for the process; secrets are redacted wherever they could appear. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        '*.key',
        '*.accessToken',
        '*.AccessToken',
        '*.appSecret',
        '*.verifyToken',
        '*.password',
        '*.secret',
        '*.privateKey',
        '*.PrivateKey',
        '*.Signature',
      ],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
