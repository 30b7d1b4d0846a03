import assert from 'node:assert/strict'
import { test } from 'node:test'
import { ExpensiveReads } from '../../src/http/expensive-reads.ts'

// One key's expensive reads run one at a time: a page that asks for its list and its facets at once is answered
// in turn; a flood past the queue, or a wait past its time, is a 429 with Retry-After.

test('a second expensive read of one key waits for the first, then runs', async () => {
  const slots = new ExpensiveReads({ perKey: 1, total: 1 })
  const first = await slots.acquire('key:a')
  let second: (() => void) | undefined
  const waiting = slots.acquire('key:a').then((release) => { second = release })
  await Promise.resolve()
  assert.equal(second, undefined, 'the second waits while the first runs')
  first()
  await waiting
  assert.equal(slots.running, 1)
  second!()
  assert.equal(slots.running, 0)
})

test('past the queue a key is refused at once, and a wait past its time is refused', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] })
  const slots = new ExpensiveReads({ perKey: 1, total: 2, waitMs: 1000 })
  const held = await slots.acquire('key:a')
  const queued = [1, 2, 3, 4].map(async () => await slots.acquire('key:a'))
  // Refused at once: a fifth that waited instead would still be pending after a turn of the event loop.
  const fifth = slots.acquire('key:a')
  const settled = fifth.then(() => 'taken', () => 'refused')
  assert.equal(await Promise.race([settled, new Promise(setImmediate).then(() => 'waiting')]), 'refused')
  await assert.rejects(fifth, (error: { status: number, headers: Record<string, string> }) =>
    error.status === 429 && error.headers['retry-after'] === '1')
  // Another key is not held up by the first key's queue.
  const other = await slots.acquire('key:b')
  t.mock.timers.tick(1000)
  for (const wait of queued) await assert.rejects(wait, (error: { status: number }) => error.status === 429)
  held()
  other()
  assert.equal(slots.running, 0)
})

test('a freed slot goes to the waiting key served longest ago, not to the first in the queue', async () => {
  // First come first served let one key's queue of searches hold back every other key's (issue 34: no key can deny
  // others); now a key that has waited without a turn goes before one that just had one.
  const slots = new ExpensiveReads({ perKey: 1, total: 1 })
  const order: string[] = []
  const releases: Array<() => void> = []
  const take = async (key: string) => {
    releases.push(await slots.acquire(key))
    order.push(key)
  }
  await take('key:a')
  const waits = [take('key:a'), take('key:a'), take('key:b')]
  for (let turn = 0; turn < 3; turn++) {
    releases[turn]!()
    // The slot is handed on in a promise: one turn of the event loop lets its holder record itself.
    await new Promise(setImmediate)
  }
  await Promise.all(waits)
  assert.deepEqual(order, ['key:a', 'key:b', 'key:a', 'key:a'])
  releases[3]!()
  assert.equal(slots.running, 0)
})

test('a release called twice (an answer that ends and then errors) frees its slot once', async () => {
  const slots = new ExpensiveReads({ perKey: 2, total: 2 })
  const first = await slots.acquire('key:a')
  const b = await slots.acquire('key:b')
  first()
  first()
  assert.equal(slots.running, 1, 'key:b still runs')
  // The one freed slot is taken; a third read must wait for key:b.
  const again = await slots.acquire('key:a')
  let third: (() => void) | undefined
  const waiting = slots.acquire('key:c').then((release) => { third = release })
  await new Promise(setImmediate)
  assert.equal(third, undefined, 'both slots are in use')
  assert.equal(slots.running, 2)
  b()
  await waiting
  again()
  third!()
  assert.equal(slots.running, 0)
})
