import type { Command } from 'commander';
import { invalid } from '../domain/errors.js';
import { REVIEWED_AS, type ReviewAction } from '../domain/templates/template-review.js';
import type { TemplateStatus } from '../domain/templates/template.js';
import { reviewById } from '../core/review.js';
import { cliAudit, failOnError, withStore } from './open-store.js';

export function registerTemplates(program: Command): void {
  const templates = program
    .command('templates')
    .description('review SMS templates')
    .addHelpText(
      'after',
      `
Examples:
  wirebird templates list --status 0
  wirebird templates approve UTA9LZM7NVM4F
  wirebird templates reject UTA9LZM7NVM4F --reason "Promotions need an opt-out text"
  wirebird templates disable UTA9LZM7NVM4F`,
    );
  const step = (name: ReviewAction, description: string, withReason = false) => {
    const cmd = templates
      .command(`${name} <TemplateId>`)
      .description(description)
      .option('-c, --config <file>', 'a JSON config file');
    if (withReason) cmd.requiredOption('-r, --reason <ErrDesc>', 'why it failed review');
    cmd.addHelpText(
      'after',
      `\nExample:\n  wirebird templates ${name} UTA9LZM7NVM4F${withReason ? ' --reason "Needs an opt-out"' : ''}`,
    );
    cmd.action(async (templateId: string, opts: { config?: string; reason?: string }) => {
      await withStore(opts.config, async (store) => {
        const t = await reviewById(store, templateId, {
          action: name,
          now: Date.now(),
          errDesc: opts.reason,
        });
        const detail = opts.reason === undefined ? {} : { ErrDesc: opts.reason };
        const action = `template.${REVIEWED_AS[name]}`;
        await cliAudit(store, { action, target: t.templateId, accountId: t.accountId, detail });
        console.log(`${t.templateId}: status ${t.status}${t.errDesc ? ` (${t.errDesc})` : ''}`);
      }).catch(failOnError);
    });
  };
  step('approve', 'approve a pending or under-review template');
  step('reject', 'fail a pending or under-review template, with a reason', true);
  step('disable', 'disable a template');
  registerList(templates);
}

function registerList(templates: Command): void {
  templates
    .command('list')
    .description('list templates, optionally by status (0 pending .. 4 disabled)')
    .option('-s, --status <n>', 'only this status')
    .addHelpText('after', '\nExample:\n  wirebird templates list --status 0')
    .option('-c, --config <file>', 'a JSON config file')
    .action(async (opts: { status?: string; config?: string }) => {
      await withStore(opts.config, async (store) => {
        if (opts.status !== undefined && !/^[0-4]$/.test(opts.status)) {
          throw invalid('--status', 'must be 0 to 4');
        }
        const status =
          // Checked above to be a digit 0 to 4, the enum's values.
          opts.status === undefined ? undefined : (Number(opts.status) as TemplateStatus);
        for (const t of await store.listTemplates({ status })) {
          console.log(
            `${t.templateId}\t${t.accountId}\t${t.status}\t${t.templateName}\t${t.template}`,
          );
        }
      }).catch(failOnError);
    });
}
