import assert from 'node:assert/strict';
import { test } from 'node:test';
import smpp from 'smpp';
import {
  COMMAND_STATUS,
  FINAL_STATS,
  MESSAGE_STATE,
  STATE_OF_STAT,
  STAT_OF_STATE,
  commandStatusName,
} from './tables.js';

test('command_status: the same names and values as the smpp package (the reference)', () => {
  assert.deepEqual({ ...COMMAND_STATUS }, { ...smpp.errors });
  assert.equal(commandStatusName(0x0b), 'ESME_RINVDSTADR');
  assert.equal(commandStatusName(0x400), 'command_status 0x00000400');
});

test('message_state: SMPP 3.4 §5.2.28 values, and each stat of Appendix B both ways', () => {
  assert.deepEqual(
    [
      MESSAGE_STATE.ENROUTE,
      MESSAGE_STATE.DELIVERED,
      MESSAGE_STATE.UNDELIVERABLE,
      MESSAGE_STATE.REJECTED,
    ],
    [1, 2, 5, 8],
  );
  for (const [state, stat] of STAT_OF_STATE) assert.equal(STATE_OF_STAT.get(stat), state);
  assert.deepEqual([...FINAL_STATS].sort(), [
    'DELETED',
    'DELIVRD',
    'EXPIRED',
    'REJECTD',
    'UNDELIV',
    'UNKNOWN',
  ]);
});
