import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pino } from 'pino';
import { ManualTime } from '../../test/helpers/manual-time.js';
import { TemplateStatus } from '../domain/templates/template.js';
import { template } from '../store/contract/fixtures.js';
import { openMemoryStore } from '../store/open-store.js';
import { AutoReviewer } from './auto-reviewer.js';

const log = pino({ level: 'silent' });

/**
 * Templates a crash left pending or under review, or that another process wrote, get no nudge:
 * the reviewer's timer pass is what reviews them, every 5 s and not before.
 */
test('the timed pass reviews a template nobody nudged for, at its interval', async () => {
  const time = new ManualTime();
  const store = openMemoryStore();
  const reviewer = new AutoReviewer({
    store,
    clock: time,
    scheduler: time,
    rules: { bannedWords: [], maxLength: 500 },
    log,
  });
  try {
    reviewer.start();
    await time.advance(1);
    const left = template({ status: TemplateStatus.Pending });
    await store.insertTemplate(left);
    await time.advance(4_998);
    assert.equal((await store.getTemplateById(left.templateId))?.status, TemplateStatus.Pending);
    await time.advance(1);
    assert.equal((await store.getTemplateById(left.templateId))?.status, TemplateStatus.Approved);
  } finally {
    await reviewer.stop();
    await store.close();
  }
  assert.equal(time.scheduled, 0, 'stop() cancels the timer');
});
