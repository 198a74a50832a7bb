import { Type } from '@sinclair/typebox';
import { WirebirdError } from '../../domain/errors.js';
import { checkNewSignature, newSignature } from '../../domain/signatures/signature-rules.js';
import { TemplateStatus } from '../../domain/templates/template.js';
import { defineAction, type ActionContext } from '../context.js';
import { storeBase64File } from '../ucloud/uploaded-file.js';
import { BooleanLike, IntegerLike, toBoolean } from './schema-types.js';
import { Obj } from '../answer-schemas.js';

const Input = Type.Object({
  SigContent: Type.String(),
  SigType: IntegerLike,
  SigPurpose: IntegerLike,
  CertificateType: IntegerLike,
  Description: Type.String(),
  File: Type.Optional(Type.String()),
  ProxyFile: Type.Optional(Type.String()),
  International: Type.Optional(BooleanLike),
  QualificationId: Type.Optional(Type.String({ maxLength: 64 })),
  SceneDesc: Type.Optional(Type.String()),
});

/** Files given as base64 go to the media store; the signature keeps their media ids. */
export async function signatureFiles(
  ctx: ActionContext,
  input: { File?: string; ProxyFile?: string },
  kept: { fileMediaId: string; proxyFileMediaId: string },
) {
  return {
    fileMediaId: input.File
      ? await storeBase64File(ctx, { field: 'File', content: input.File })
      : kept.fileMediaId,
    proxyFileMediaId: input.ProxyFile
      ? await storeBase64File(ctx, { field: 'ProxyFile', content: input.ProxyFile })
      : kept.proxyFileMediaId,
  };
}

/** A live signature (not failed, not disabled) with the same content makes a second one moot. */
const LIVE: readonly number[] = [
  TemplateStatus.Pending,
  TemplateStatus.UnderReview,
  TemplateStatus.Approved,
];

export const createUsmsSignature = defineAction(
  {
    audit: (input, answer) => ({
      action: 'signature.created',
      target: String(answer.SigId),
      detail: { SigContent: input.SigContent },
    }),
    scope: 'templates',
    summary: 'Applies for a signature (a sender name); it starts pending review.',
    request: Input,
    answer: Obj({ SigId: Type.String(), SigContent: Type.String() }),
  },
  async (ctx, input) => {
    const { accountId, deps } = ctx;
    const twin = (await deps.store.signaturesByContent(accountId, input.SigContent)).find((s) =>
      LIVE.includes(s.status),
    );
    if (twin) {
      throw new WirebirdError(
        'StateConflict',
        `SigContent ${input.SigContent} is already signature ${twin.sigId} (Status ${twin.status})`,
      );
    }
    const fields = {
      sigContent: input.SigContent,
      sigType: Number(input.SigType),
      sigPurpose: Number(input.SigPurpose),
      certificateType: Number(input.CertificateType),
      description: input.Description,
      sceneDesc: input.SceneDesc ?? '',
      international: toBoolean(input.International) ?? false,
      qualificationId: input.QualificationId ?? '',
      fileMediaId: '',
      proxyFileMediaId: '',
    };
    // Checked before any file is stored, so a refused request leaves nothing behind.
    checkNewSignature(fields, Boolean(input.ProxyFile));
    const files = await signatureFiles(ctx, input, { fileMediaId: '', proxyFileMediaId: '' });
    const sig = newSignature(
      { ...fields, ...files },
      { sigId: deps.ids.sigId(), accountId },
      deps.clock.now(),
    );
    await deps.store.insertSignature(sig);
    deps.nudges.reviewTemplates();
    return { SigId: sig.sigId, SigContent: sig.sigContent };
  },
);
