/** What templates and signatures share in both stores: the list filter of the review pages. */
import type { TemplateStatus } from '../../domain/templates/template.js';

export interface ReviewedFilter {
  status?: TemplateStatus;
  accountId?: number;
}

/** `WHERE …` (or '') and its arguments; `mark(n)` spells the n-th placeholder (? or $n). */
export function reviewedWhere(
  filter: ReviewedFilter,
  mark: (n: number) => string,
): { where: string; args: number[] } {
  const clauses: string[] = [];
  const args: number[] = [];
  for (const [column, value] of [
    ['status', filter.status],
    ['account_id', filter.accountId],
  ] as const) {
    if (value === undefined) continue;
    args.push(value);
    clauses.push(`${column} = ${mark(args.length)}`);
  }
  return { where: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', args };
}
