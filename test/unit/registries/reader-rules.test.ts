import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { cercarbono } from '../../../src/ingest/registries/cercarbono.ts'
import { goldStandard } from '../../../src/ingest/registries/gold-standard.ts'
import { isometric } from '../../../src/ingest/registries/isometric.ts'
import { parseSdgs } from '../../../src/ingest/registries/values.ts'
import { readFiles, readRows } from './read-rows.ts'

// Rules of the registry readers that a planted mutant once changed without any test noticing (a hand-run mutation
// campaign): each test here fails with that mutant and passes without it. docs/registries.md has the mappings.

describe('Gold Standard reader: the monitoring period', () => {
  test('Monitoring Period Start and End are read day first, as every Gold Standard date: 05/04/2023 is 5 April', () => {
    const read = readRows(goldStandard, 'issuances', [{
      Vintage: '2023',
      'Credit Status': 'Issued',
      Quantity: '1,000',
      GSID: '11603',
      'Project Name': 'Efficient cooking in Kenya',
      Country: 'Kenya',
      'Issuance Date': '2024-03-31',
      'Serial Number': 'GS1-1-KE-GS11603-16-2023-1-1000',
      'Monitoring Period Start': '05/04/2023',
      'Monitoring Period End': '04/05/2023'
    }])
    const [issued] = read.draft('GS11603').transactions() ?? []
    assert.deepEqual([issued?.vintage_start, issued?.vintage_end], ['2023-04-05', '2023-05-04'])
    assert.deepEqual(read.warnings, [])
  })
})

describe('Isometric reader: the credit type by pathway', () => {
  const project = (protocol: string, pathway: string) => ({
    id: 'prj_1', name: 'A removal project', short_code: 'TS26', protocol_slug: protocol, pathway
  })
  const creditTypeOf = (protocol: string, pathway: string) =>
    readFiles(isometric, [{ kind: 'projects', rows: [project(protocol, pathway)] }])
      .draft('TS26').fields().credit_type?.verbose_name

  test('a protocol the reader does not know falls back to its pathway: "marine" is ocean alkalinity enhancement',
    () => {
      assert.equal(creditTypeOf('a-new-marine-protocol', 'marine'), 'Ocean alkalinity enhancement')
    })

  test('a known protocol wins over the pathway: biochar under the biomass pathway stays biochar', () => {
    assert.equal(creditTypeOf('biochar', 'biomass_carbon_removal_and_storage'), 'Biochar')
  })
})

describe('Cercarbono reader: the project area', () => {
  const project = (sizeUnits: string, size: number) => ({
    id: '1',
    code: 'CDC-1',
    name: 'A forest project',
    sector: `[{'description': 'Forestry', 'projectSize': ${size}, 'sizeUnits': '${sizeUnits}'}]`,
    locations: '[]',
    serials: '[]'
  })
  const areaOf = (sizeUnits: string, size: number) =>
    readRows(cercarbono, 'projects', [project(sizeUnits, size)]).draft('CDC-1').fields().area

  test('a size in hectares (Spanish "Hectáreas", "ha") is the area', () => {
    assert.equal(areaOf('Hectáreas', 1250.5), 1250.5)
    assert.equal(areaOf('ha', 80), 80)
  })

  test('a size in another unit is no area: 5,000 tCO2e or 300 acres are not hectares', () => {
    assert.equal(areaOf('tCO2e', 5000), null)
    assert.equal(areaOf('acres', 300), null)
  })
})

describe('SDG columns: goals 1 to 17', () => {
  test('goal 17 (Partnerships for the Goals) is a goal; 0 and 18 are not', () => {
    assert.deepEqual(parseSdgs('01: No Poverty; 17: Partnerships for the Goals'), { numbers: [1, 17], invalid: [] })
    assert.deepEqual(parseSdgs('13,17'), { numbers: [13, 17], invalid: [] })
    assert.deepEqual(parseSdgs('0,18'), { numbers: [], invalid: ['0', '18'] })
  })
})
