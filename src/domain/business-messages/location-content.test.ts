import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RetCode } from '../errors.js';
import { parseBusinessContent } from './content.js';
import { refused } from '../../../test/helpers/refused.js';

const { MissingParameter, InvalidParameter } = RetCode;

const location = (fields: Record<string, unknown>) =>
  parseBusinessContent('location', { latitude: 1, longitude: 2, ...fields });

describe('location', () => {
  it('needs latitude and longitude', () => {
    refused(
      () => parseBusinessContent('location', { longitude: 2 }),
      MissingParameter,
      'Content.latitude',
    );
    refused(
      () => parseBusinessContent('location', { latitude: 1 }),
      MissingParameter,
      'Content.longitude',
    );
    refused(() => location({ latitude: '' }), MissingParameter, 'Content.latitude');
  });
  it('takes numbers and decimal strings, normalised to numbers', () => {
    assert.deepEqual(location({ latitude: '37.483307', longitude: '-122.148981' }), {
      type: 'location',
      location: { latitude: 37.483307, longitude: -122.148981 },
    });
    assert.deepEqual(location({ latitude: '+5', longitude: 0 }), {
      type: 'location',
      location: { latitude: 5, longitude: 0 },
    });
  });
  it('turns -0 into 0', () => {
    const content = location({ latitude: -0, longitude: '-0.0' });
    assert.ok(content.type === 'location');
    assert.ok(Object.is(content.location.latitude, 0));
    assert.ok(Object.is(content.location.longitude, 0));
  });
  it('accepts the bounds themselves', () => {
    assert.deepEqual(location({ latitude: -90, longitude: 180 }), {
      type: 'location',
      location: { latitude: -90, longitude: 180 },
    });
  });
  it('refuses latitudes beyond ±90 and longitudes beyond ±180', () => {
    refused(() => location({ latitude: 90.0001 }), InvalidParameter, 'Content.latitude');
    refused(() => location({ latitude: '-91' }), InvalidParameter, 'Content.latitude');
    refused(() => location({ longitude: 180.5 }), InvalidParameter, 'Content.longitude');
    refused(() => location({ longitude: -181 }), InvalidParameter, 'Content.longitude');
  });
  it('refuses NaN, Infinity and anything that is not a plain decimal', () => {
    const bad = [
      Number.NaN,
      Number.POSITIVE_INFINITY,
      'abc',
      '0x10',
      '1e1',
      '37,48',
      ' 37.48',
      '37.',
      true,
      [1],
      {},
    ];
    for (const latitude of bad) {
      refused(() => location({ latitude }), InvalidParameter, 'Content.latitude');
    }
  });
  it('keeps name and address, up to 1000 characters each', () => {
    const name = 'n'.repeat(1000);
    assert.deepEqual(location({ name, address: '1 Hacker Way' }), {
      type: 'location',
      location: { latitude: 1, longitude: 2, name, address: '1 Hacker Way' },
    });
    refused(() => location({ name: `${name}n` }), InvalidParameter, 'Content.name');
    refused(() => location({ address: 'a'.repeat(1001) }), InvalidParameter, 'Content.address');
    refused(() => location({ address: 12 }), InvalidParameter, 'Content.address');
  });
  it('refuses other fields', () => {
    refused(() => location({ lat: 1 }), InvalidParameter, 'Content.lat');
  });
});
