import { Type } from '@sinclair/typebox';
import { WirebirdError } from '../../domain/errors.js';
import {
  checkProxyDocument,
  checkSignatureFields,
  checkUpdatable,
  updateSignature,
} from '../../domain/signatures/signature-rules.js';
import { defineAction } from '../context.js';
import { signatureFiles } from './create-usms-signature.js';
import { IntegerLike } from './schema-types.js';
import { Obj } from '../answer-schemas.js';

const Input = Type.Object({
  SigId: Type.String({ minLength: 1 }),
  SigContent: Type.String(),
  SigType: IntegerLike,
  SigPurpose: IntegerLike,
  CertificateType: Type.Optional(IntegerLike),
  File: Type.Optional(Type.String()),
  ProxyFile: Type.Optional(Type.String()),
  /** URLs of files uploaded before: the files already kept stay when no new one is given. */
  Document: Type.Optional(Type.String()),
  ProxyDoc: Type.Optional(Type.String()),
  SceneDesc: Type.Optional(Type.String()),
});

export const updateUsmsSignature = defineAction(
  {
    audit: (input) => ({
      action: 'signature.updated',
      target: input.SigId,
      detail: { SigContent: input.SigContent },
    }),
    scope: 'templates',
    summary: 'Changes a signature that is not approved; it goes back to review.',
    request: Input,
    answer: Obj({}),
  },
  async (ctx, input) => {
    const { accountId, deps } = ctx;
    const [current] = await deps.store.getSignatures(accountId, [input.SigId]);
    if (!current) throw new WirebirdError('NotFound', `SigId ${input.SigId} not found`);
    const fields = {
      ...current,
      sigContent: input.SigContent,
      sigType: Number(input.SigType),
      sigPurpose: Number(input.SigPurpose),
      certificateType:
        input.CertificateType === undefined
          ? current.certificateType
          : Number(input.CertificateType),
      sceneDesc: input.SceneDesc ?? current.sceneDesc,
    };
    // Checked before any file is stored, so a refused request leaves nothing behind.
    checkSignatureFields(fields);
    checkProxyDocument(
      fields.sigPurpose,
      Boolean(input.ProxyFile) || current.proxyFileMediaId !== '',
    );
    checkUpdatable(current);
    const files = await signatureFiles(ctx, input, current);
    const next = updateSignature(current, { ...fields, ...files }, deps.clock.now());
    if (!(await deps.store.replaceSignature(next))) {
      throw new WirebirdError('StateConflict', `SigId ${input.SigId} changed meanwhile; retry`);
    }
    deps.nudges.reviewTemplates();
    return {};
  },
);
