import assert from 'node:assert/strict';
import { describe } from 'node:test';
import type { MediaFile } from '../../domain/media/media-file.js';
import {
  ACCOUNT,
  DAY,
  NOW,
  OTHER_ACCOUNT,
  mediaFile,
  storeTest,
  type OpenStore,
} from './fixtures.js';

const infoOf = ({ bytes: _bytes, ...info }: MediaFile) => info;

export function mediaContract(open: OpenStore): void {
  const test = storeTest(open);

  describe('media', () => {
    test('insertMedia then getMediaFile reads the bytes back exactly; getMediaInfo without them', async (store) => {
      const bytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
      const file = mediaFile({ bytes, size: bytes.length, fileName: 'ünïcode ✓.png' });
      await store.insertMedia(file);
      const read = await store.getMediaFile(ACCOUNT, file.mediaId);
      assert.ok(read);
      assert.deepEqual(infoOf(read), infoOf(file));
      assert.ok(Buffer.from(read.bytes).equals(bytes), 'the same bytes, all 256 values');
      assert.deepEqual(await store.getMediaInfo(ACCOUNT, file.mediaId), infoOf(file));
    });

    test('unknown ids read as undefined', async (store) => {
      assert.equal(await store.getMediaInfo(ACCOUNT, 'wbm_missing'), undefined);
      assert.equal(await store.getMediaFile(ACCOUNT, 'wbm_missing'), undefined);
    });

    test("a file is never read through another account's id", async (store) => {
      const file = mediaFile();
      await store.insertMedia(file);
      assert.equal(await store.getMediaInfo(OTHER_ACCOUNT, file.mediaId), undefined);
      assert.equal(await store.getMediaFile(OTHER_ACCOUNT, file.mediaId), undefined);
    });
  });

  describe('media uploads', () => {
    const upload = (mediaId: string, phoneNumberId = '1234567890') => ({
      mediaId,
      phoneNumberId,
      whatsAppMediaId: '900000000001',
      uploadedAt: NOW,
    });

    test('saveMediaUpload then getMediaUpload, per phone number id', async (store) => {
      const file = mediaFile();
      await store.insertMedia(file);
      assert.equal(await store.getMediaUpload(ACCOUNT, file.mediaId, '1234567890'), undefined);
      await store.saveMediaUpload(upload(file.mediaId));
      assert.deepEqual(
        await store.getMediaUpload(ACCOUNT, file.mediaId, '1234567890'),
        upload(file.mediaId),
      );
      assert.equal(await store.getMediaUpload(ACCOUNT, file.mediaId, '999'), undefined);
    });

    test('saving again replaces the WhatsApp media id and the time', async (store) => {
      const file = mediaFile();
      await store.insertMedia(file);
      await store.saveMediaUpload(upload(file.mediaId));
      const again = {
        ...upload(file.mediaId),
        whatsAppMediaId: '900000000002',
        uploadedAt: NOW + 29 * DAY,
      };
      await store.saveMediaUpload(again);
      assert.deepEqual(await store.getMediaUpload(ACCOUNT, file.mediaId, '1234567890'), again);
    });

    test("an upload is never read through another account's id", async (store) => {
      const file = mediaFile();
      await store.insertMedia(file);
      await store.saveMediaUpload(upload(file.mediaId));
      assert.equal(
        await store.getMediaUpload(OTHER_ACCOUNT, file.mediaId, '1234567890'),
        undefined,
      );
    });
  });
}
