import assert from 'node:assert/strict';
import { WirebirdError } from '../../src/domain/errors.js';

/** Asserts that fn throws a WirebirdError with this RetCode whose message starts with the field. */
export function refused(fn: () => unknown, retCode: number, field: string): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof WirebirdError, `expected a WirebirdError, got ${String(e)}`);
    assert.equal(e.retCode, retCode, e.message);
    assert.ok(e.message.startsWith(`${field} `), `"${e.message}" should name ${field}`);
    return true;
  });
}
