import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import { endOfTurn } from '../../server/end-of-turn.ts';

const checkPhase = () => new Promise((r) => setImmediate(r));

test('calls run after the current I/O callback, together and in arrival order', async () => {
  const ran: string[] = [];
  const defer = endOfTurn((a: string, b: number) => { ran.push(`${a}${b}`); });
  await new Promise<void>((resolve) => {
    // Inside an I/O callback, as a request read from a socket is.
    fs.stat(import.meta.filename, () => {
      defer('a', 1);
      defer('b', 2);
      assert.equal(ran, [], 'nothing runs inside the callback that queued it');
      setImmediate(() => {
        // Scheduled after the first call: runs after the queued calls, in the same check phase.
        assert.equal(ran, ['a1', 'b2']);
        resolve();
      });
    });
  });
});

test('a call queued while the queue runs goes in the next turn, not lost', async () => {
  const ran: number[] = [];
  const defer: (n: number, again: boolean) => void = endOfTurn((n: number, again: boolean) => {
    ran.push(n);
    if (again) defer(n + 10, false);
  });
  defer(1, true);
  defer(2, false);
  await checkPhase();
  assert.equal(ran, [1, 2]);
  await checkPhase();
  assert.equal(ran, [1, 2, 11]);
});

test('one setImmediate per turn, however many calls', async () => {
  const original = globalThis.setImmediate;
  let scheduled = 0;
  globalThis.setImmediate = ((fn: () => void) => { scheduled++; return original(fn); }) as typeof setImmediate;
  try {
    const defer = endOfTurn((_a: number, _b: number) => {});
    for (let i = 0; i < 100; i++) defer(i, i);
    assert.is(scheduled, 1);
  } finally {
    globalThis.setImmediate = original;
  }
  await checkPhase();
});

test.run();
