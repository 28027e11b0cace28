import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { pinTickShape } from '../../server/pin-tick-shape.ts';

test('pins a tick object: the symbol-keyed async ids, the callback and the args of process.nextTick', () => {
  const tick = pinTickShape() as Record<string | symbol, unknown>;
  assert.is(Object.getOwnPropertySymbols(tick).length, 2);
  assert.type(tick.callback, 'function');
  assert.ok('args' in tick);
});

test('pins once per process', () => {
  assert.is(pinTickShape(), pinTickShape());
});

test('leaves no async hook enabled, so later async resources pay nothing', () => {
  // Node's own hook registry is internal: a child process reads it after pinning.
  const script = `
    const { pinTickShape } = await import(${JSON.stringify(new URL('../../server/pin-tick-shape.ts', import.meta.url).href)});
    const hooks = (await import('node:module')).createRequire(import.meta.url)('internal/async_hooks');
    pinTickShape();
    process.stdout.write(JSON.stringify({ enabled: hooks.getHookArrays()[0].length, init: hooks.initHooksExist() }));`;
  const out = execFileSync(process.execPath, ['--expose-internals', '--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(JSON.parse(out), { enabled: 0, init: false });
});

test.run();
