export interface KannelPorts {
  admin: number;
  smsbox: number;
  sendsms: number;
  smsc: number;
}

export const SENDSMS_USER = { username: 'bench', password: 'bench' };

/**
 * kannel.conf for one bench run: bearerbox with one SMPP transceiver to the SMSC simulator and
 * `max-pending-submits` as its window, an smsbox with one sendsms user, DLRs kept in memory,
 * messages in a file store (the usual production setting: a restart keeps the queue), loopback
 * only, and logs at warning level so that logging does not weigh on the figures.
 */
/** One `group = …` block of kannel.conf, a field per line (the interop test writes its own too). */
export const group = (name: string, fields: Record<string, string | number>): string =>
  [`group = ${name}`, ...Object.entries(fields).map(([k, v]) => `${k} = ${v}`), ''].join('\n');

/** A kannel.conf string value, in double quotes. */
export const q = (s: string): string => `"${s}"`;

export function kannelConf(dir: string, ports: KannelPorts, window: number): string {
  return [
    group('core', {
      'admin-port': ports.admin,
      'admin-password': 'bench',
      'admin-deny-ip': q('*.*.*.*'),
      'admin-allow-ip': q('127.0.0.1'),
      'smsbox-port': ports.smsbox,
      'box-deny-ip': q('*.*.*.*'),
      'box-allow-ip': q('127.0.0.1'),
      'log-file': q(`${dir}/bearerbox.log`),
      'log-level': 2,
      'dlr-storage': 'internal',
      'store-type': 'file',
      'store-location': q(`${dir}/kannel.store`),
    }),
    group('smsc', {
      smsc: 'smpp',
      'smsc-id': 'sim',
      host: '127.0.0.1',
      port: ports.smsc,
      'transceiver-mode': 'true',
      'smsc-username': 'kannel',
      'smsc-password': 'bench',
      'system-type': q(''),
      'interface-version': 34,
      'max-pending-submits': window,
      // The simulator gives hex ids in submit_sm_resp and quotes them in hex in its receipts.
      'msg-id-type': '0x03',
      'enquire-link-interval': 30,
      'reconnect-delay': 1,
    }),
    group('smsbox', {
      'bearerbox-host': '127.0.0.1',
      'sendsms-port': ports.sendsms,
      'sendsms-interface': q('127.0.0.1'),
      'log-file': q(`${dir}/smsbox.log`),
      'log-level': 2,
    }),
    group('sendsms-user', {
      username: SENDSMS_USER.username,
      password: SENDSMS_USER.password,
      'max-messages': 3,
      concatenation: 'true',
    }),
  ].join('\n');
}
