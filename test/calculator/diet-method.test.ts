import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { sharedTestApp } from '../helpers.ts'

/**
 * Issue 35, finding 3: one diet method for the default and every form (the country's supply mix, intake with a
 * cited waste factor, forms that swap food groups), so vegan <= vegetarian <= default <= high_meat everywhere.
 */

const BASE = '/api/v1/co2-calculator'

interface DietBody { co2e: { kg: number }, inputs: { calories: number }, assumptions: string[] }

describe('one diet method (issue 35, finding 3)', () => {
  // The calculator only reads the shipped data: these tests share one app.
  const shared = sharedTestApp({ env: { RATE_LIMIT_CALCULATOR: '1000000' } })
  test('vegan <= vegetarian <= default <= high_meat, and low_meat < medium_meat <= high_meat, in every supported ' +
    'country', async () => {
    const { app } = shared()
    const countries = (await app.inject(`${BASE}/countries`)).json() as Array<{ country_code: string }>
    assert.ok(countries.length > 150)
    const off: string[] = []
    for (const { country_code: code } of countries) {
      const kg = async (form: string): Promise<number> =>
        ((await app.inject(`${BASE}/diet?country_code=${code}&diet_form=${form}`)).json() as DietBody).co2e.kg
      const [vegan, vegetarian, everything, high, low, medium] = [await kg('vegan'), await kg('vegetarian'),
        await kg('everything'), await kg('high_meat'), await kg('low_meat'), await kg('medium_meat')]
      if (!(vegan <= vegetarian && vegetarian <= everything && everything <= high)) {
        off.push(`${code}: ${vegan} ${vegetarian} ${everything} ${high}`)
      }
      // 25 g, 75 g and at least 100 g of meat a day (Scarborough's groups): more meat eaten, more CO2e.
      if (!(low < medium && medium <= high)) off.push(`${code}: low ${low}, medium ${medium}, high ${high}`)
    }
    assert.deepEqual(off, [])
  })

  test('the note that an average diet exceeds the country\'s greenhouse gases is for the average diet only',
    async () => {
      const { app } = shared()
      const notes = async (query: string): Promise<string[]> =>
        ((await app.inject(`${BASE}/diet?country_code=AFG&${query}`)).json() as DietBody).assumptions
          .filter((line) => line.includes('more than its greenhouse gases per person'))
      // Afghanistan: the average diet, 966.69 kg CO2e with the global mean factors, above its 0.957 t of GHG
      // per person (OWID, 2021).
      assert.equal((await notes('diet_form=everything')).length, 1)
      assert.match((await notes('diet_form=everything'))[0] ?? '',
        /\(0\.967 t CO2e\) is more than its greenhouse gases per person \(0\.957 t/)
      // A person's own answers are not the average diet, even where they too exceed it: the note would be about
      // someone else.
      assert.deepEqual(await notes('diet_form=high_meat'), [])
      assert.deepEqual(await notes('diet_form=everything&calories=3000'), [])
    })

  test('a vegan answer says what share of the kcal it moves: the UK\'s meat and dairy, 25.5 %', async () => {
    const { app } = shared()
    // FAO GBR 2020 (worked-cases.test.ts): meat 486.92853 + dairy and eggs 387.72064 of 3423.68 kcal = 25.55 %.
    const body = await app.inject(`${BASE}/diet?country_code=GBR&diet_form=vegan`)
    assert.match(body.body, /vegan: no meat, dairy or eggs; their 25\.5 % of the kcal are shared by the plant groups/)
  })

  test('the result is warned about against a regional GHG figure, and says so, where the country has none of its own',
    async () => {
      const { app } = shared()
      const warnings = async (code: string) =>
        ((await app.inject(`${BASE}/flight?country_code=${code}&long_haul=10`)).json() as { warnings: string[] })
          .warnings.filter((line) => line.startsWith('This flights result'))
      // Ten long-haul returns (about 19 t) exceed both. French Polynesia has no greenhouse-gas figure of its own in
      // OWID's data; Germany has.
      assert.match((await warnings('PYF'))[0] ?? '', /, a regional value standing in\)/)
      assert.equal((await warnings('DEU')).length, 1)
      assert.doesNotMatch((await warnings('DEU'))[0] ?? '', /regional value/)
    })

  test('the audit\'s cases: USA everything below high_meat, India vegetarian below its default', async () => {
    const { app } = shared()
    const kg = async (code: string, form: string): Promise<number> =>
      ((await app.inject(`${BASE}/diet?country_code=${code}&diet_form=${form}`)).json() as DietBody).co2e.kg
    // On main: USA everything 3,906 kg > high_meat 3,738 kg; India vegetarian 1,518 kg, 48 % above its default.
    assert.ok(await kg('USA', 'everything') <= await kg('USA', 'high_meat'))
    assert.ok(await kg('IND', 'vegetarian') < await kg('IND', 'everything'))
  })

  test('the default intake is the supply less the UNEP waste share, and the waste is counted', async () => {
    const { app } = shared()
    const body = (await app.inject(`${BASE}/diet?country_code=GBR&diet_form=everything`)).json() as DietBody
    // FAO GBR 2020 supply 3,423.68 kcal x (1 - 0.17) = 2,841.65, rounded to 2,842 kcal eaten (UNEP 2021: 17 % of
    // food available to consumers is wasted by households, food service and retail).
    assert.equal(body.inputs.calories, 2842)
    assert.ok(body.assumptions.some((line) => line.includes('UNEP') && line.includes('2842 / (1 - 0.17)')))
  })

  test('/config advertises the diet\'s real default intake, not a fixed 2,000 kcal (issue 37)', async () => {
    const { app } = shared()
    // Germany, FAO via OWID 2020: 798.33496 + 6.0327578 + 124.676994 + 447.42953 + 910.9464 + 362.97092 +
    // 532.8936 + 202.09738 + 222.20657 + 39.212925 = 3,646.80 kcal supplied, x (1 - 0.17) = 3,026.85 -> 3,027.
    const config = (await app.inject(`${BASE}/config?country_code=DEU`)).json() as
      { defaults: { calories: number } }
    assert.equal(config.defaults.calories, 3027)
    const diet = (await app.inject(`${BASE}/diet?country_code=DEU&diet_form=everything`)).json() as DietBody
    assert.equal(diet.inputs.calories, config.defaults.calories, 'the form\'s default is the answer\'s default')
  })

  test('each food group\'s range spans its lowest and highest Poore and Nemecek product', async () => {
    const { app } = shared()
    const body = (await app.inject(`${BASE}/diet?country_code=DEU&diet_form=everything`)).json() as {
      breakdown: Array<{ label: string, quantity: number, range: { low_kg: number, high_kg: number } }>
    }
    // data/calculator/food_group_factors.csv (kg CO2e per 1,000 kcal): each group's lowest and highest product.
    const spans: Array<[string, number, number]> = [
      ['cereals grains', 0.236, 1.207270754], // Barley, Rice
      ['oils fats', 0.407239819, 0.828054299], // Sunflower Oil, Palm Oil
      ['dairy eggs', 3.243055556, 6.170542636] // Eggs, Cheese
    ]
    for (const [group, lowest, highest] of spans) {
      const entry = body.breakdown.find((item) => item.label.startsWith(`${group} (`))
      assert.ok(entry !== undefined, group)
      assert.ok(Math.abs(entry.range.low_kg - entry.quantity * lowest) < 0.01, `${group}: ${JSON.stringify(entry)}`)
      assert.ok(Math.abs(entry.range.high_kg - entry.quantity * highest) < 0.01, `${group}: ${JSON.stringify(entry)}`)
    }
  })
})
