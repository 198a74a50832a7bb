import { Type } from '@sinclair/typebox';
import { invalid } from '../../domain/errors.js';
import { defineAction } from '../context.js';
import { storeBase64File } from '../ucloud/uploaded-file.js';
import { IntegerLike } from './schema-types.js';
import { Obj } from '../answer-schemas.js';

const Input = Type.Object({
  FileContent: Type.String({ minLength: 1 }),
  FileName: Type.String({ minLength: 1, maxLength: 255 }),
  Source: IntegerLike,
  FileType: Type.Optional(Type.String({ maxLength: 127 })),
});

/** A qualification file (Source 0), kept in the media store; its FileId is its media id. */
export const uploadUsmsFile = defineAction(
  {
    scope: 'templates',
    summary: 'Stores a signature qualification file (base64); answers its FileId.',
    request: Input,
    answer: Obj({ FileId: Type.String() }),
  },
  async (ctx, input) => {
    if (Number(input.Source) !== 0)
      throw invalid('Source', 'must be 0 (a signature qualification file)');
    const fileId = await storeBase64File(ctx, {
      field: 'FileContent',
      content: input.FileContent,
      fileName: input.FileName,
      mimeType: input.FileType,
    });
    return { FileId: fileId };
  },
);
