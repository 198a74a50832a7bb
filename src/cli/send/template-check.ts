import { parseVariables } from '../../domain/templates/variables.js';
import { TemplateStatus } from '../../domain/templates/template.js';
import { CliError } from '../cli-error.js';
import type { WirebirdClient } from '@wirebird/client';
import { cliErrorOf } from '../client/gateway-client.js';

/**
 * The number of parameters the template takes, asked of the gateway before the first row is
 * sent: the template must be the account's and approved, or every row would fail alike.
 */
export async function templateParamCount(
  client: WirebirdClient,
  templateId: string,
): Promise<number> {
  const answer = await client
    .queryUSMSTemplate({ TemplateId: [templateId] })
    .catch((err: unknown) => Promise.reject(cliErrorOf(err, '--template')));
  // Data is the one OutTemplate asked for.
  const data = answer.Data;
  if (data.Status !== TemplateStatus.Approved) {
    throw new CliError(
      `--template: ${templateId} is not approved (Status ${data.Status}); only an approved template sends`,
    );
  }
  return parseVariables(data.Template).paramCount;
}

/**
 * The CSV columns that fill {1}, {2}…: those named, else every column but the phone and the user
 * id. Their number must be the template's, or a text would go out half-filled or be refused.
 */
export function paramColumns(
  templateId: string,
  paramCount: number,
  header: readonly string[],
  columns: { phone: string; userId: string; params: readonly string[] | undefined },
): readonly string[] {
  const named = columns.params;
  // A template without parameters and no columns named: the other columns are just not used.
  if (named === undefined && paramCount === 0) return [];
  const params = named ?? header.filter((c) => c !== columns.phone && c !== columns.userId);
  if (params.length === paramCount) return params;
  const given = params.length === 0 ? 'none' : params.join(', ');
  throw new CliError(
    `--params-column: template ${templateId} takes ${paramCount} parameters but the CSV gives ${params.length} (${given}); name the columns for {1}, {2}… in order with --params-column`,
  );
}
