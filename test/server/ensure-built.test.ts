/** `npm start` rebuilds a read model that is missing, broken or of another format than this code reads. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readModelUsable } from '../../server/ensure-built.ts';
import { READ_MODEL_SCHEMA_VERSION } from '../../formats/schemas/read-model.ts';

function readModel(pointer: string | null, manifest: unknown): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ensure-built-'));
  if (pointer !== null) fs.writeFileSync(path.join(dir, 'current'), pointer);
  fs.mkdirSync(path.join(dir, 'builds', 'b1'), { recursive: true });
  if (manifest !== undefined) fs.writeFileSync(path.join(dir, 'builds', 'b1', 'manifest.json'), JSON.stringify(manifest));
  return dir;
}

test('a current build of this format is usable; anything else is built again', () => {
  const pointer = '{"build_id":"b1"}\n';
  assert.ok(readModelUsable(readModel(pointer, { schema_version: READ_MODEL_SCHEMA_VERSION })));
  assert.not.ok(readModelUsable(readModel(pointer, { schema_version: READ_MODEL_SCHEMA_VERSION - 1 })), 'an older format');
  assert.not.ok(readModelUsable(readModel(null, { schema_version: READ_MODEL_SCHEMA_VERSION })), 'no pointer');
  assert.not.ok(readModelUsable(readModel(pointer, undefined)), 'no manifest');
  assert.not.ok(readModelUsable(readModel('{"build_id":"../x"}', { schema_version: READ_MODEL_SCHEMA_VERSION })), 'a pointer outside builds/');
  assert.not.ok(readModelUsable(readModel('not json', { schema_version: READ_MODEL_SCHEMA_VERSION })), 'a corrupt pointer');
});

test.run();
