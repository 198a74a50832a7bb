import { Type } from '@sinclair/typebox';
import { WirebirdError } from '../../domain/errors.js';
import { defineAction, type ActionDef } from '../context.js';

/**
 * UCloud SDK Actions that Wirebird does not offer: signature qualifications are UCloud's own
 * paperwork with China's carriers, and AddBackfill feeds UCloud's conversion statistics. They are
 * answered with their own RetCode, below 2000 so that an SDK does not retry them.
 */
export const NOT_SUPPORTED: readonly string[] = [
  'AddBackfill',
  'AddUSMSSignatureQualification',
  'DeleteUSMSSignatureQualification',
  'GetUSMSSignatureQualification',
  'QueryUSMSSignatureQualification',
  'UpdateUSMSSignatureQualification',
];

export function notSupported(action: string): ActionDef {
  return defineAction(
    {
      summary: 'A UCloud Action Wirebird does not offer: always answered with RetCode 162.',
      request: Type.Object({}),
      answer: Type.Object({}),
    },
    async () => {
      throw new WirebirdError(
        'NotSupported',
        `${action} is a UCloud Action that Wirebird does not offer (docs/ucloud-sdk.md lists what it does)`,
      );
    },
  );
}
