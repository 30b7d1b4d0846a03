import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, test } from 'node:test'
import { parseCsv } from '../../src/reference/csv.ts'
import { buildTestApp, sharedTestApp } from '../helpers.ts'

/**
 * Issue 35, item 3: household-size scaling from survey data. The US figure comes from EIA's Residential Energy
 * Consumption Survey 2015 by number of household members (data/calculator/recs_2015_household_size.csv, group means
 * of the public microdata). Expected values are computed by hand from that table and the cited anchors.
 */

const BASE = '/api/v1/co2-calculator'
const DATA = path.join(import.meta.dirname, '..', '..', 'data', 'calculator')

interface EnergyBody {
  co2e: { kg: number }
  inputs: { electricity_kwh: number, heating_kwh: number }
  defaults_used: Array<{ parameter: string, basis: string }>
  assumptions: string[]
  sources: Array<{ id: string }>
}

const energy = async (app: Awaited<ReturnType<typeof buildTestApp>>['app'], query: string): Promise<EnergyBody> => {
  const response = await app.inject(`${BASE}/energy?${query}`)
  assert.equal(response.statusCode, 200, response.body)
  return response.json() as EnergyBody
}

const recs = parseCsv(readFileSync(path.join(DATA, 'recs_2015_household_size.csv'), 'utf8'), 'recs')
const group = (members: string): Record<string, string> => {
  const row = recs.rows.find((entry) => entry.household_members === members)
  assert.ok(row !== undefined, members)
  return row
}
const cell = (members: string, column: string): number => Number(group(members)[column])
// Site kWh of heating fuel: gas 1,037 Btu per cubic foot (ccf x 103.7 kBtu), fuel oil 138,690 Btu per gallon,
// propane already in kBtu; 0.29307107 kWh per kBtu.
const fuelKwh = (members: string): number =>
  (cell(members, 'natural_gas_ccf') * 103.7 + cell(members, 'fuel_oil_gal') * 138.69 +
    cell(members, 'propane_kbtu')) * 0.29307107

describe('household size scales home energy as RECS measured it (issue 35, item 3)', () => {
  // The calculator only reads the shipped data: these tests share one app.
  const shared = sharedTestApp()
  test('the exponents in parameters.csv are the slopes fitted on the RECS 2015 household-size groups', () => {
    const groups = recs.rows.filter((row) => row.household_members !== 'all')
    assert.equal(groups.length, 5)
    // Weighted least squares of ln(group mean) on ln(mean members), weights = the groups' share of households.
    const slope = (value: (members: string) => number): number => {
      const points = groups.map((row) => {
        const members = row.household_members ?? ''
        return {
          w: cell(members, 'share_of_households'),
          x: Math.log(cell(members, 'mean_members')),
          y: Math.log(value(members))
        }
      })
      const sw = points.reduce((sum, p) => sum + p.w, 0)
      const mx = points.reduce((sum, p) => sum + p.w * p.x, 0) / sw
      const my = points.reduce((sum, p) => sum + p.w * p.y, 0) / sw
      return points.reduce((sum, p) => sum + p.w * (p.x - mx) * (p.y - my), 0) /
        points.reduce((sum, p) => sum + p.w * (p.x - mx) ** 2, 0)
    }
    const parameters = parseCsv(readFileSync(path.join(DATA, 'parameters.csv'), 'utf8'), 'parameters')
    const param = (key: string): number => Number(parameters.rows.find((row) => row.key === key)?.value)
    assert.ok(Math.abs(param('energy.household_scale_exponent.electricity') -
      slope((members) => cell(members, 'electricity_kwh'))) < 0.0006)
    assert.ok(Math.abs(param('energy.household_scale_exponent.heating') - slope(fuelKwh)) < 0.0006)
    // The table's groups add up: shares sum to 1 and the share-weighted electricity is the all-household mean.
    const shares = groups.reduce((sum, row) => sum + cell(row.household_members ?? '', 'share_of_households'), 0)
    assert.ok(Math.abs(shares - 1) < 0.0005)
    const mean = groups.reduce((sum, row) => {
      const members = row.household_members ?? ''
      return sum + cell(members, 'share_of_households') * cell(members, 'electricity_kwh')
    }, 0)
    assert.ok(Math.abs(mean / cell('all', 'electricity_kwh') - 1) < 0.001, String(mean))
  })

  test('USA, one person and four people: worked by hand from RECS and the cited anchors', async () => {
    const { app } = shared()
    // The average US household is 2.49 people (UN DESA); its electricity 10,715 kWh (EIA) and heating fuel
    // 76.8 MMBtu x 293.07107 - 10,715 = 11,792.86 kWh (RECS 2020).
    // One person: electricity x (1 / 2.49) ^ 0.397 = x 0.696160 -> 7,459.35 kWh;
    //             heating x (1 / 2.49) ^ 0.322 = x 0.745459 -> 8,791.09 kWh.
    // Four people: electricity x (4 / 2.49) ^ 0.397 = x 1.207054 -> 12,933.58 kWh;
    //             heating x (4 / 2.49) ^ 0.322 = x 1.164896 -> 13,737.45 kWh.
    const one = await energy(app, 'country_code=USA&household_size=1')
    const four = await energy(app, 'country_code=USA&household_size=4')
    assert.ok(Math.abs(one.inputs.electricity_kwh - 7459.35) < 0.5, String(one.inputs.electricity_kwh))
    assert.ok(Math.abs(one.inputs.heating_kwh - 8791.09) < 0.5, String(one.inputs.heating_kwh))
    assert.ok(Math.abs(four.inputs.electricity_kwh - 12933.58) < 0.5, String(four.inputs.electricity_kwh))
    assert.ok(Math.abs(four.inputs.heating_kwh - 13737.45) < 0.5, String(four.inputs.heating_kwh))
    assert.ok(one.assumptions.some((line) => line.includes('Residential Energy Consumption Survey 2015')))
    assert.ok(one.sources.some((source) => source.id === 'eia-recs-2015-microdata'), 'the survey is a source')
  })

  test('USA: one person against four is what RECS shows, not the square-root scale\'s 2.0x', async () => {
    const { app } = shared()
    const one = await energy(app, 'country_code=USA&household_size=1')
    const four = await energy(app, 'country_code=USA&household_size=4')
    // RECS 2015, per person: electricity 7,339.5 / (13,353.4 / 4) = 2.20x; heating fuel 2.47x.
    const recsElectricity = cell('1', 'electricity_kwh') / (cell('4', 'electricity_kwh') / 4)
    const recsFuel = fuelKwh('1') / (fuelKwh('4') / 4)
    assert.ok(Math.abs(recsElectricity - 2.1985) < 0.001 && Math.abs(recsFuel - 2.4722) < 0.001,
      `${recsElectricity} ${recsFuel}`)
    const electricity = one.inputs.electricity_kwh / (four.inputs.electricity_kwh / 4)
    const heating = one.inputs.heating_kwh / (four.inputs.heating_kwh / 4)
    assert.ok(Math.abs(electricity / recsElectricity - 1) < 0.06, `${electricity} vs RECS ${recsElectricity}`)
    assert.ok(Math.abs(heating / recsFuel - 1) < 0.06, `${heating} vs RECS ${recsFuel}`)
    // The per-person total lies between the two, and above the square-root scale's 2.0.
    const total = one.co2e.kg / four.co2e.kg
    assert.ok(total > 2.2 && total < 2.6, String(total))
    // A one-person US home uses what RECS's one-person homes use, relative to the average: 7,339.5 / 10,720.4.
    const expected = 10715 * cell('1', 'electricity_kwh') / cell('all', 'electricity_kwh')
    assert.ok(Math.abs(one.inputs.electricity_kwh / expected - 1) < 0.03, `${one.inputs.electricity_kwh} ${expected}`)
  })

  test('elsewhere the US survey stands in, and the answer says so', async () => {
    const { app } = shared()
    const body = await energy(app, 'country_code=DEU&household_size=1')
    const line = body.assumptions.find((entry) => entry.includes('Residential Energy Consumption Survey')) ?? ''
    assert.match(line, /no survey of home energy by household size is cited for Germany/)
    const basis = body.defaults_used.find((entry) => entry.parameter === 'electricity_kwh')?.basis ?? ''
    assert.match(basis, /RECS 2015/)
  })
})
