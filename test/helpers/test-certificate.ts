import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/** A self-signed certificate for 127.0.0.1 in `dir`, or why the test that needs one skips. */
export interface TestCertificate {
  certFile: string;
  keyFile: string;
  skip: string | false;
}

/**
 * Makes the certificate with the openssl CLI every Debian has: RSA 2048, one day, CN and
 * subjectAltName 127.0.0.1, so that a client checking the name against the address accepts it.
 */
export function selfSignedCertificate(dir: string): TestCertificate {
  const [certFile, keyFile] = [join(dir, 'cert.pem'), join(dir, 'key.pem')];
  const made = spawnSync('openssl', [
    ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1'],
    ...['-keyout', keyFile, '-out', certFile, '-subj', '/CN=127.0.0.1'],
    ...['-addext', 'subjectAltName=IP:127.0.0.1'],
  ]);
  const skip = made.status === 0 ? false : 'openssl could not make a test certificate';
  return { certFile, keyFile, skip };
}
