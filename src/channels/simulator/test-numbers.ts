/**
 * Test numbers, like a payment provider's test cards: the last four digits of the recipient
 * decide the outcome. The built-in simulator and `wirebird smsc-sim` share this table.
 */
export type TestOutcome = 'deliver' | 'fail' | 'refuse' | 'silent';

export const TEST_NUMBERS: Readonly<Record<string, { outcome: TestOutcome; meaning: string }>> = {
  '0001': { outcome: 'fail', meaning: 'accepted, then reported undeliverable (Fail)' },
  '0002': { outcome: 'refuse', meaning: 'refused at submission (SubmitFail)' },
  '0003': {
    outcome: 'silent',
    meaning: 'accepted, never reported (Unknow after the receipt timeout)',
  },
};

export function testOutcomeOf(e164: string): TestOutcome {
  return TEST_NUMBERS[e164.slice(-4)]?.outcome ?? 'deliver';
}
