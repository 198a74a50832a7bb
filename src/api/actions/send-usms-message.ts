import { Type } from '@sinclair/typebox';
import { MAX_NUMBERS_PER_REQUEST } from '../../domain/batches/batch.js';
import { defineAction } from '../context.js';
import { StringList, TemplateParams, toList } from './schema-types.js';
import { sendGroups } from './send-batch-usms-message.js';
import { ScheduleParams } from '../schedule-fields.js';
import { BatchInfo, Obj } from '../answer-schemas.js';

const Input = Type.Object({
  PhoneNumbers: StringList({ minItems: 1, maxItems: MAX_NUMBERS_PER_REQUEST }),
  TemplateId: Type.String({ minLength: 1, maxLength: 64 }),
  TemplateParams: Type.Optional(TemplateParams),
  /** The UCloud name of the sender: an approved signature (or a registered SenderId). */
  SigContent: Type.Optional(Type.String()),
  SenderId: Type.Optional(Type.String()),
  ExtendCode: Type.Optional(Type.String()),
  UserId: Type.Optional(Type.String()),
  ...ScheduleParams,
});

/**
 * UCloud's SendUSMSMessage: one template and its parameters to a list of numbers, accepted as a
 * SendBatchUSMSMessage of one group would be; answers SessionNo (and UserId when one was given).
 */
export const sendUsmsMessage = defineAction(
  {
    scope: 'send',
    repeatable: 'keyed',
    summary: "UCloud's SendUSMSMessage: one template and its parameters to a list of numbers.",
    request: Input,
    answer: Obj({
      SessionNo: Type.String(),
      UserId: Type.Optional(Type.String()),
      FailContent: Type.Optional(Type.Array(BatchInfo)),
    }),
  },
  async (ctx, input) => {
    const userId = input.UserId === '' ? undefined : input.UserId;
    const senderId = input.SenderId || input.SigContent || undefined;
    const group = {
      TemplateId: input.TemplateId,
      SenderId: senderId,
      Target: toList(input.PhoneNumbers).map((Phone) => ({
        Phone,
        TemplateParams: input.TemplateParams,
        ExtendCode: input.ExtendCode,
        UserId: userId,
      })),
    };
    return sendGroups(ctx, {
      groups: [group],
      request: input,
      shape: (batch) => ({
        ...(batch.Message === undefined ? {} : { Message: batch.Message }),
        SessionNo: batch.SessionNo,
        ...(userId === undefined ? {} : { UserId: userId }),
        ...(batch.FailContent.length > 0 ? { FailContent: batch.FailContent } : {}),
      }),
    });
  },
);
