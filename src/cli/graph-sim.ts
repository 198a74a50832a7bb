import { InvalidArgumentError, type Command } from 'commander';
import { CliError } from './cli-error.js';

interface GraphSimFlags {
  host: string;
  port: number;
  webhook?: string;
  statusDelayMs: number;
  window: boolean;
}

function count(v: string): number {
  if (!/^\d{1,9}$/.test(v)) throw new InvalidArgumentError('must be a whole number');
  return Number(v);
}

export function registerGraphSim(program: Command): void {
  program
    .command('graph-sim')
    .description(
      "run a stand-in for Meta's Graph API that posts signed statuses back, to try the WhatsApp channel",
    )
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('-p, --port <port>', 'port to listen on', count, 8090)
    .option('--webhook <url>', 'where to post statuses', 'http://127.0.0.1:8080/webhooks/whatsapp')
    .option('--status-delay-ms <ms>', 'delay between one status and the next', count, 200)
    .option('--no-window', "deliver free-form messages whatever the contact's 24-hour window")
    .addHelpText(
      'after',
      [
        '',
        'Statuses are signed with WIREBIRD_WHATSAPP_APP_SECRET, as the gateway checks them.',
        'Recipients ending in 0001 get sent then failed (131026), 0002 are refused at once',
        '(HTTP 400, 131026), 0003 get no status; any other number gets sent, delivered, read.',
        'A free-form message (not a template) to a contact who has not written in 24 hours gets',
        'sent then failed (131047), as Meta fails it; --no-window turns that off.',
        'POST /simulate/messages {"from","to","text"} makes a person write to a business phone:',
        'the message is posted to the webhook, signed, as Meta posts one. Add',
        '"media": {"type": "image", "mimeType": "image/png", "base64": "…"} to send a file, which',
        'the gateway then fetches through GET /v24.0/{media id} (docs/inbound.md, Media).',
        '',
        'Example:',
        '  export WIREBIRD_WHATSAPP_APP_SECRET=dev-secret',
        '  npm run wirebird -- graph-sim --port 8090 &',
        '  WIREBIRD_WHATSAPP_API_URL=http://127.0.0.1:8090/v24.0 npm start',
      ].join('\n'),
    )
    .action(async (f: GraphSimFlags) => {
      const appSecret = process.env.WIREBIRD_WHATSAPP_APP_SECRET;
      if (!appSecret) {
        throw new CliError('set WIREBIRD_WHATSAPP_APP_SECRET: the statuses are signed with it');
      }
      // Loaded here, not when the CLI starts: the simulator is a Fastify server.
      const { GraphSim } = await import('../graph-sim/graph-sim.js');
      const sim = new GraphSim({
        host: f.host,
        port: f.port,
        statusDelayMs: f.statusDelayMs,
        window: f.window,
        appSecret,
        ...(f.webhook ? { webhookUrl: f.webhook } : {}),
      });
      const url = await sim.start();
      console.log(`Graph API simulator at ${url}/v24.0, statuses to ${f.webhook} (Ctrl-C to stop)`);
      const stop = () => {
        console.log(JSON.stringify(sim.stats));
        void sim.stop().then(() => process.exit(0));
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
}
