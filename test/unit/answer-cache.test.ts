import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { AnswerCache } from '../../src/http/answer-cache.ts'

// The answer cache is bounded in bytes and evicts the least recently used entry: a hit makes an entry the most
// recent, so a busy answer survives a stream of one-off ones (LRU, not FIFO).

/** Entries of 900 bytes under an 8,000-byte budget: eight fit, a ninth evicts one (keys add a little each). */
const ENTRY_BYTES = 900
const BUDGET = 8000

function cache () {
  const answers = new AnswerCache(BUDGET)
  const builds: string[] = []
  const get = async (key: string) => {
    const { built } = await answers.getOrBuild(key, () => { builds.push(key); return key }, () => ENTRY_BYTES)
    return built
  }
  return { answers, builds, get }
}

describe('answer cache eviction', () => {
  test('a hit refreshes recency: the entry read last survives, the least recently used goes (M18, LRU not FIFO)',
    async () => {
      const { get } = cache()
      for (let i = 0; i < 8; i++) assert.equal(await get(`k${i}`), true)
      assert.equal(await get('k0'), false, 'k0 is cached')
      assert.equal(await get('k8'), true)
      assert.equal(await get('k0'), false, 'k0, read after k1 was, is kept')
      assert.equal(await get('k1'), true, 'k1, the least recently used, was evicted')
    })

  test('without hits the oldest entry goes first', async () => {
    const { get } = cache()
    for (let i = 0; i < 9; i++) await get(`k${i}`)
    assert.equal(await get('k8'), false)
    assert.equal(await get('k2'), false)
    assert.equal(await get('k0'), true)
  })

  test('the entries stay within the budget', async () => {
    const { answers, get } = cache()
    for (let i = 0; i < 50; i++) await get(`k${i}`)
    assert.ok(answers.bytes <= BUDGET, `${answers.bytes} bytes`)
    assert.ok(answers.bytes >= 8 * ENTRY_BYTES)
  })

  test('an answer larger than an eighth of the budget is answered but not kept', async () => {
    const answers = new AnswerCache(BUDGET)
    const big = () => answers.getOrBuild('big', () => 'x', () => BUDGET / 4)
    assert.equal((await big()).built, true)
    assert.equal((await big()).built, true)
    assert.equal(answers.bytes, 0)
  })

  test('concurrent misses of one key share one build; a build that throws stores nothing', async () => {
    const { answers, builds } = cache()
    const slow = () => answers.getOrBuild('k', async () => { builds.push('k'); return 'v' }, () => ENTRY_BYTES)
    const [a, b] = await Promise.all([slow(), slow()])
    assert.deepEqual([a.value, b.value, builds], ['v', 'v', ['k']])
    // Only the call that built it paid for the build (the rate limit charges a build, not a wait for one).
    assert.deepEqual([a.built, b.built], [true, false])
    await assert.rejects(answers.getOrBuild('bad', () => { throw new Error('no') }, () => 1), /no/)
    const again = await answers.getOrBuild('bad', () => 'fine', () => 1)
    assert.equal(again.built, true)
  })
})
