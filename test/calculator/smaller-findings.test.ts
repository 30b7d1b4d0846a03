import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { calculator, type Body } from '../support/calculator.ts'

/**
 * Issue 22, finding 9 ("smaller ones"), checked through HTTP with the shipped data. Expected
 * values are the cited figures themselves (DESNZ 2025 rows, EEA 2020, ...), written here.
 */

describe('finding 9: premium cabins have no steep ramp near 3,700 km', () => {
  test('no 100 km step between 2,000 and 6,000 km changes a premium cabin\'s kg per km by more than 5 % ' +
    '(business 3,500 -> 3,600 km was +23 % per km, +26 % in total)', async (t) => {
    const get = await calculator(t)
    for (const options of ['', '&radiative_forcing=false', '&boundary=combustion']) {
      for (const cabin of ['premium_economy', 'business', 'first']) {
        let before: number | undefined
        let beforeKm = 0
        for (let km = 2000; km <= 6000; km += 100) {
          const kg = (await get(`/flight?country_code=DEU&distance=${km}&cabin_class=${cabin}${options}`)).co2e.kg
          const perKm = kg / km
          if (before !== undefined) {
            assert.ok(Math.abs(perKm / before - 1) <= 0.05,
              `${cabin}${options}: ${beforeKm} km ${before.toFixed(5)} kg/km -> ${km} km ${perKm.toFixed(5)} kg/km`)
          }
          before = perKm
          beforeKm = km
        }
      }
    }
  })

  test('outside the ramp the DESNZ band factors apply unchanged', async (t) => {
    const get = await calculator(t)
    // DESNZ 2025 short-haul business 21_316_3166 0.18863 + WTT 22_912_3166 0.03373
    assert.equal((await get('/flight?country_code=DEU&distance=2000&cabin_class=business')).co2e.kg,
      Math.round(2000 * (0.18863 + 0.03373) * 100) / 100)
    // DESNZ 2025 long-haul business 21_316_3174 0.3394 + WTT 22_912_3174 0.07137
    assert.equal((await get('/flight?country_code=DEU&distance=6000&cabin_class=business')).co2e.kg,
      Math.round(6000 * (0.3394 + 0.07137) * 100) / 100)
  })
})

describe('finding 9: /footprint gives every figure for one year', () => {
  test('Germany: consumption, territorial and GHG figures and the world figure are all for 2021 (territorial was ' +
    '2023)', async (t) => {
    const get = await calculator(t)
    const body = await get('/footprint?country_code=DEU&basis=territorial')
    assert.equal(body.year, 2021)
    for (const [name, stat] of Object.entries({ ...body.values, world: body.world })) {
      assert.equal((stat as Body).year, 2021, name)
    }
    // Global Carbon Budget 2024 via OWID (co-emissions-per-capita), Germany 2021: 8.109928 t per person
    assert.equal(body.values.territorial_co2.t, 8.11)
    assert.equal(body.co2e.kg, 8110)
    // World 2021: 4.650446 t territorial (GCB 2024), 4.6548448 t consumption (GCB 2023)
    assert.equal(body.world.t, 4.65)
    assert.equal((await get('/footprint?country_code=DEU')).world.t, 4.655)
    assert.ok(body.assumptions.some((line: string) => /2021/.test(line) && /same year/.test(line)),
      body.assumptions.join('\n'))
  })
})

describe('finding 9: the three clothes modes count the same thing', () => {
  test('amount=average counts clothing and footwear, as spend (apparel) and items (garments) do, not the household ' +
    'textiles inside the EEA figure', async (t) => {
    const get = await calculator(t)
    // EEA 2020, EU-27: 270 kg CO2e per person for 14.8 kg of textiles bought, of which 6.1 kg clothing, 2.7 kg
    // footwear and 6.0 kg household textiles (bed linen, towels), which neither other mode counts. Shared by mass.
    const clothesAndShoes = 270 * (6.1 + 2.7) / 14.8
    const average = await get('/clothes?country_code=DEU&amount=average')
    assert.equal(average.co2e.kg, Math.round(clothesAndShoes * 100) / 100)
    assert.equal((await get('/clothes?country_code=DEU&amount=much')).co2e.kg,
      Math.round(2 * clothesAndShoes * 100) / 100)
    assert.ok(average.assumptions.some((line: string) => /household textiles/i.test(line) && /not counted/.test(line)),
      average.assumptions.join('\n'))
    // The same EU-average person in the other modes: 8.0 new garments at 20 kg (Levi's 501, cradle to retail), or
    // 1,107 2021 USD at 0.145 kg per USD (US EPA USEEIO v1.2 apparel), each answer saying where it equals the average.
    const items = await get('/clothes?country_code=DEU&new_items=8')
    assert.ok(Math.abs(items.co2e.kg - clothesAndShoes) < 0.05 * clothesAndShoes, `${items.co2e.kg}`)
    const spend = await get('/clothes?country_code=DEU&spend_usd=1107')
    assert.ok(Math.abs(spend.co2e.kg - clothesAndShoes) < 0.01 * clothesAndShoes, `${spend.co2e.kg}`)
    for (const body of [items, spend]) {
      assert.ok(body.assumptions.some((line: string) => /EU-27 average/.test(line) && /160\.5/.test(line)),
        body.assumptions.join('\n'))
    }
  })
})
