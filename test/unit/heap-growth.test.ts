import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { heapGrowthPlan, operatorHeapFlag } from '../../src/runtime/heap-growth.js';

describe('heap growth', () => {
  it("finds the V8 flag the operator gave node, in either spelling, among node's arguments", () => {
    assert.equal(operatorHeapFlag([]), undefined);
    assert.equal(operatorHeapFlag(['--max-old-space-size=512', '--heap-growing-percent=50']), '--heap-growing-percent=50');
    assert.equal(operatorHeapFlag(['--heap_growing_percent=20']), '--heap_growing_percent=20');
    assert.equal(operatorHeapFlag(['--heap-growing', '--enable-source-maps']), undefined);
  });

  it("sets the percent unless it is 0 (V8's own) or the operator's flag is there", () => {
    assert.deepEqual(heapGrowthPlan(30, undefined), { kind: 'set', percent: 30 });
    assert.deepEqual(heapGrowthPlan(0, undefined), { kind: 'v8-default' });
    assert.deepEqual(heapGrowthPlan(30, '--heap-growing-percent=80'), { kind: 'operator', flag: '--heap-growing-percent=80' });
  });
});
