// @ts-check
/**
 * A local ESLint rule: every `as` cast (and `<T>x` assertion) in the code that runs says why it
 * is safe, in a comment on its own lines or just above the statement that holds it. A cast turns
 * the type checker off for one value; the comment is where a reader finds the reason it may be
 * (a row read from SQL, JSON a schema already validated, a platform type that is too wide).
 * `as const` narrows rather than overrides, so it needs no reason.
 */

/** The statement, class member or object property a cast sits in: the comment goes above it. */
function holder(node) {
  let at = node;
  while (at.parent) {
    const p = at.parent;
    const kind = p.type;
    if (kind === 'Program' || kind === 'BlockStatement' || kind === 'ClassBody') return at;
    if (kind === 'ObjectExpression' || kind === 'ArrayExpression') return at;
    at = p;
  }
  return node;
}

/** @type {import('eslint').Rule.RuleModule} */
export const castReason = {
  meta: {
    type: 'suggestion',
    docs: { description: 'Require a comment that says why each type cast is safe.' },
    schema: [],
    messages: {
      reason:
        'Say why this cast is safe in a comment on its lines or above its statement (a parse boundary, a validated value, …).',
    },
  },
  create(context) {
    const source = context.sourceCode;
    const commentLines = new Set();
    for (const c of source.getAllComments()) {
      for (let line = c.loc.start.line; line <= c.loc.end.line; line++) commentLines.add(line);
    }
    const explained = (node) => {
      const from = holder(node).loc.start.line - 1;
      for (let line = from; line <= node.loc.end.line; line++) {
        if (commentLines.has(line)) return true;
      }
      return false;
    };
    const isConst = (t) =>
      t.type === 'TSTypeReference' &&
      t.typeName.type === 'Identifier' &&
      t.typeName.name === 'const';
    const check = (node) => {
      if (isConst(node.typeAnnotation) || explained(node)) return;
      context.report({ node, messageId: 'reason' });
    };
    return { TSAsExpression: check, TSTypeAssertion: check };
  },
};
