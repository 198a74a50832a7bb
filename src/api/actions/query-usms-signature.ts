import { Type } from '@sinclair/typebox';
import { WirebirdError, missing } from '../../domain/errors.js';
import { defineAction } from '../context.js';
import { outSignature } from './out-signature.js';
import { Obj, OutSignature } from '../answer-schemas.js';

const Input = Type.Object({
  SigId: Type.Optional(Type.String()),
  SigContent: Type.Optional(Type.String()),
});

/** By SigId, or else the newest signature of the account with that SigContent. */
export const querySignature = defineAction(
  {
    scope: 'templates',
    repeatable: 'safe',
    summary: 'Reads a signature by SigId, or the newest with that SigContent.',
    request: Input,
    answer: Obj({ Data: OutSignature }),
  },
  async ({ accountId, deps }, input) => {
    const { SigId, SigContent } = input;
    if (!SigId && !SigContent) throw missing('SigId or SigContent');
    const found = SigId
      ? (await deps.store.getSignatures(accountId, [SigId]))[0]
      : (await deps.store.signaturesByContent(accountId, SigContent ?? ''))[0];
    if (!found || (SigId && SigContent && found.sigContent !== SigContent)) {
      const what = SigId ? `SigId ${SigId}` : `SigContent ${SigContent}`;
      throw new WirebirdError('NotFound', `${what} not found`);
    }
    return { Data: outSignature(found) };
  },
);
