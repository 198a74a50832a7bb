/** The location content object: a point in decimal degrees with an optional name and address. */
import { invalid, missing } from '../errors.js';
import { isAbsent, optionalString, refuseUnknownFields } from './fields.js';
import type { JsonObject } from './fields.js';

export interface LocationContent {
  latitude: number;
  longitude: number;
  name?: string;
  address?: string;
}

export const PLACE_TEXT_MAX = 1000;

// WhatsApp's own examples send coordinates as strings, so plain decimal strings are accepted;
// hex, exponents, commas and padding are not, as Number() would quietly misread some of them.
const DECIMAL = /^[+-]?\d+(\.\d+)?$/;

function coordinate(obj: JsonObject, key: string, base: string, limit: number): number {
  const path = `${base}.${key}`;
  const value = obj[key];
  if (isAbsent(value)) throw missing(path);
  const degrees = typeof value === 'number' ? value : isDecimal(value) ? Number(value) : Number.NaN;
  if (!Number.isFinite(degrees)) throw invalid(path, 'must be a number of decimal degrees');
  if (degrees < -limit || degrees > limit) {
    throw invalid(path, `must be between -${limit} and ${limit} (got ${degrees})`);
  }
  // -0 would survive as -0 in memory though JSON prints it as 0; make both agree.
  return degrees === 0 ? 0 : degrees;
}

function isDecimal(value: unknown): value is string {
  return typeof value === 'string' && DECIMAL.test(value);
}

export function parseLocationContent(obj: JsonObject, base: string): LocationContent {
  refuseUnknownFields(obj, ['latitude', 'longitude', 'name', 'address'], base, 'for location');
  const location: LocationContent = {
    latitude: coordinate(obj, 'latitude', base, 90),
    longitude: coordinate(obj, 'longitude', base, 180),
  };
  const name = optionalString(obj, 'name', base, PLACE_TEXT_MAX);
  const address = optionalString(obj, 'address', base, PLACE_TEXT_MAX);
  if (name !== undefined) location.name = name;
  if (address !== undefined) location.address = address;
  return location;
}
