import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { loadCalculatorData } from '../../src/calculator/calculator.data.ts'
import { flightAnswer } from '../../src/calculator/flight.ts'

// The flight bands' edges (docs/methodology.md, "Bands"): under 500 km domestic, 500 to 3,700 km short-haul, over
// 3,700 km long-haul. The 3,700 km edge is the rule DESNZ 2025 calls its earlier, crude one ("under 3,700 km
// short-haul", methodology 8.9); Tonne's bands put 3,700 km itself in the short-haul band, long-haul only beyond
// it. The answer's breakdown names each flight's band; near an edge the factor ramps between the bands (the
// transitions, 300-700 km and 2,700-4,700 km), so outside a ramp a band's own DESNZ factor applies.

const data = loadCalculatorData()

/** The one breakdown item of a single flight of `km` (economy unless given). */
function flight (km: number, cabin: 'economy' | 'business' = 'economy') {
  const answer = flightAnswer(data, { country_code: 'GBR', distance: km, cabin_class: cabin })
  assert.equal(answer.breakdown.length, 1)
  return answer.breakdown[0]!
}

describe('flight band edges', () => {
  test('exactly 3,700 km is short-haul, not long-haul (M23); 3,700.1 km is long-haul', () => {
    assert.equal(flight(3700).category, 'short_haul')
    assert.equal(flight(3700.1).category, 'long_haul')
  })

  test('exactly 500 km is short-haul; 499.9 km is domestic', () => {
    assert.equal(flight(500).category, 'short_haul')
    assert.equal(flight(499.9).category, 'domestic')
  })

  test('the shortest flight is domestic and the longest long-haul', () => {
    assert.equal(flight(1).category, 'domestic')
    assert.equal(flight(20038).category, 'long_haul')
  })

  test('at 3,700 km the factor lies between the short- and long-haul ones, not on either', () => {
    const short = flight(2700, 'business')
    const long = flight(4700, 'business')
    const edge = flight(3700, 'business')
    assert.ok(short.factor < edge.factor && edge.factor < long.factor,
      `${short.factor} < ${edge.factor} < ${long.factor}`)
  })

  test('the ramps end at 300, 700, 2,700 and 4,700 km: there the band\'s own DESNZ factor applies', () => {
    const ends = [[300, 'domestic'], [700, 'short_haul'], [2700, 'short_haul'], [4700, 'long_haul']] as const
    for (const [km, band] of ends) {
      const item = flight(km)
      assert.equal(item.category, band, `${km} km`)
      assert.match(item.factor_id, /^desnz-2025:/, `${km} km: ${item.factor_id}`)
    }
    for (const km of [301, 699, 2701, 4699]) {
      assert.match(flight(km).factor_id, /^tonne:flight\.transition\./, `${km} km`)
    }
  })
})
