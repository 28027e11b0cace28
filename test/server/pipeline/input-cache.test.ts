import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ApiError } from '../../../server/errors.ts';
import { readPage } from '../../../server/operations/read-page.ts';
import { getCompanyInfo } from '../../../server/operations/get-company-info.ts';
import { cacheInputs } from '../../../server/pipeline/input-cache.ts';
import { validateParams } from '../../../server/pipeline/params.ts';
import { parseQuery } from '../../../server/rest/query.ts';
import { createCollector } from '../../../server/rest/collect.ts';
import type { OperationCore } from '../../../server/operations/operation.ts';

/** The REST wire's parsing, counted, behind the cache. */
function restInputs() {
  const collect = createCollector();
  const parsed: string[] = [];
  const inputOf = cacheInputs((op: OperationCore, raw: unknown) => {
    parsed.push(typeof raw === 'string' ? raw : JSON.stringify(raw));
    return validateParams(op.input, typeof raw === 'string' ? collect(op, parseQuery(raw)) : raw as Record<string, unknown>);
  });
  return { inputOf, parsed };
}

test('a query string seen before gives the same validated input, frozen, without parsing it again', () => {
  const { inputOf, parsed } = restInputs();
  const first = inputOf(readPage, 'url=cookies');
  assert.equal(first, { url: 'cookies', offset: 0 });
  assert.ok(Object.isFrozen(first), 'no operation can change what the next call gets');
  assert.is(inputOf(readPage, 'url=cookies'), first);
  assert.equal(parsed, ['url=cookies']);
});

test('inputs are kept per operation: the same string may mean another input elsewhere', () => {
  const { inputOf } = restInputs();
  assert.equal(inputOf(getCompanyInfo, ''), { section: 'all' });
  assert.throws(() => inputOf(readPage, ''), (err: unknown) => err instanceof ApiError && err.status === 400);
});

test('an invalid query string is refused every time, never kept', () => {
  const { inputOf, parsed } = restInputs();
  for (let i = 0; i < 2; i++) {
    assert.throws(() => inputOf(readPage, 'url=cookies&offset=x'), (err: unknown) => err instanceof ApiError && err.code === 'rest_invalid_param');
  }
  assert.equal(parsed, ['url=cookies&offset=x', 'url=cookies&offset=x']);
});

test('parameters that are not one string (MCP arguments) are validated every time', () => {
  const { inputOf, parsed } = restInputs();
  const args = { url: 'cookies' };
  assert.equal(inputOf(readPage, args), { url: 'cookies', offset: 0 });
  inputOf(readPage, args);
  assert.is(parsed.length, 2);
});

test.run();
