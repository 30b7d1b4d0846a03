import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { acr, car } from '../../../src/ingest/registries/apx.ts'
import { arb } from '../../../src/ingest/registries/arb.ts'
import { cercarbono } from '../../../src/ingest/registries/cercarbono.ts'
import { goldStandard } from '../../../src/ingest/registries/gold-standard.ts'
import { isometric } from '../../../src/ingest/registries/isometric.ts'
import { ProjectDraft } from '../../../src/ingest/registries/project-draft.ts'
import { protocols, type RowContext } from '../../../src/ingest/registries/registry.ts'
import { firstSentence, parseSdgs } from '../../../src/ingest/registries/values.ts'
import { ledger, readFiles, readRows } from './read-rows.ts'

// Rules of the registry readers that a planted mutant once changed without any test noticing (a hand-run mutation
// campaign): each test here fails with that mutant and passes without it. docs/registries.md has the mappings.

/** A row of Gold Standard's issuances export. */
const GS_ISSUED = {
  Vintage: '2023',
  'Credit Status': 'Issued',
  Quantity: '1,000',
  GSID: '11603',
  'Project Name': 'Efficient cooking in Kenya',
  Country: 'Kenya',
  'Issuance Date': '2024-03-31',
  'Serial Number': 'GS1-1-KE-GS11603-16-2023-1-1000',
}

describe('Gold Standard reader: the monitoring period', () => {
  test('Monitoring Period Start and End are read day first, as every Gold Standard date: 05/04/2023 is 5 April', () => {
    const read = readRows(goldStandard, 'issuances', [{
      ...GS_ISSUED, 'Monitoring Period Start': '05/04/2023', 'Monitoring Period End': '04/05/2023'
    }])
    const [issued] = read.draft('GS11603').transactions() ?? []
    assert.deepEqual([issued?.vintage_start, issued?.vintage_end], ['2023-04-05', '2023-05-04'])
    assert.deepEqual(read.warnings, [])
  })
})

describe('American Carbon Registry reader: the vintage assignment period', () => {
  test('Vintage Assignment Period Start and End are read month first, as every APX date: 1/5/2019 is 5 January', () => {
    const read = readRows(acr, 'retirements', [{
      'Project ID': 'ACR586',
      Vintage: '2019',
      'Credit Serial Numbers': 'ACR-US-586-2019-1-100',
      'Quantity of Credits': '100',
      'Retired on Behalf of': 'A buyer',
      'Status Effective (GMT)': '3/24/2026 9:08:01 PM',
      'Vintage Assignment Period Start Date': '1/5/2019',
      'Vintage Assignment Period End Date': '12/31/2019'
    }])
    const [retired] = read.draft('ACR586').transactions() ?? []
    assert.deepEqual([retired?.date, retired?.vintage_start, retired?.vintage_end],
      ['2026-03-24', '2019-01-05', '2019-12-31'])
    assert.deepEqual(read.warnings, [])
  })
})

describe('Climate Action Reserve reader: the compliance programme', () => {
  const standardOf = (columns: Record<string, string>) => readRows(car, 'projects', [{
    'Project ID': 'CAR1335',
    'Project Name': 'A forest',
    'Project Type': 'U.S. Forest',
    'Project Listed Date': '1/15/2020',
    ...columns
  }]).draft('CAR1335').fields().standard?.verbose_name

  test('a project with a WA ECO id is a Washington compliance project, whatever its type says; without one, voluntary',
    () => {
      assert.equal(standardOf({ 'WA ECO': 'ECYOD0001' }), 'Washington Compliance Offset Protocol')
      assert.equal(standardOf({ 'ARB ID': 'CAOD0001' }), 'California Compliance Offset Protocol')
      assert.equal(standardOf({}), 'Climate Action Reserve Offset Protocols')
    })
})

describe('ACR reader: compliance by the protocol\'s name, through CarbonPlan\'s protocol mapping', () => {
  const standardOf = (protocol: string) => readRows(acr, 'projects', [{
    'Project ID': 'ACR586',
    'Project Name': 'A forest',
    'Voluntary Status': 'Registered',
    'Project Site Country': 'United States',
    'Project Methodology/Protocol': protocol
  }]).draft('ACR586').fields().standard?.verbose_name

  test('a protocol CarbonPlan maps to ecy-… is Washington\'s, to arb-… California\'s; any other, ACR\'s own', () => {
    // data/catalogue/reference/all-protocol-mapping.json: ecy-forest and arb-forest's known strings.
    assert.equal(standardOf('Improved Forest Management - WA ECO Compliance'), 'Washington Compliance Offset Protocol')
    assert.equal(standardOf('Reforestation - ARB Compliance'), 'California Compliance Offset Protocol')
    assert.doesNotMatch(standardOf('VM0007') ?? '', /Compliance Offset Protocol/)
  })
})

describe('Gold Standard reader: Article 6 authorisation', () => {
  const issuance = (authorisation: string) => readRows(goldStandard, 'issuances', [{
    ...GS_ISSUED, 'Article Six Authorization': authorisation
  }]).draft('GS11603').certifications()?.map((c) => c.verbose_name)

  test('"No", "Not Applicable" or blank is no authorisation; "Yes" is "Article 6 Authorized"', () => {
    for (const no of ['No', 'NO', 'Not Applicable', 'N/A', '']) assert.deepEqual(issuance(no), [], no)
    assert.deepEqual(issuance('Yes'), ['Article 6 Authorized'])
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

describe('CORSIA eligibility of a vintage', () => {
  test('a vintage is eligible when any of its issuance rows says so, whatever the rows\' order', () => {
    for (const order of [[true, false], [false, true]]) {
      const draft = new ProjectDraft('ACR586')
      draft.addTransaction({ type: 'issuance', identity: 'I', date: null, vintage: 2020, quantity: 1000 },
        { file: 'issuances.csv', line: 2 })
      for (const eligible of order) draft.corsiaEligible(2020, eligible)
      assert.deepEqual(draft.credits()?.vintages.map((v) => [v.vintage, v.corsia_eligible]), [[2020, true]], `${order}`)
    }
  })
})

describe('CORSIA Eligible as a project label', () => {
  test('a project whose one stated vintage is eligible is labelled; one with an ineligible vintage is not', () => {
    const labelled = (...eligible: boolean[]) => {
      const draft = new ProjectDraft('ART102')
      eligible.forEach((flag, i) => { draft.corsiaEligible(2020 + i, flag) })
      return draft.certifications()?.map((c) => c.verbose_name) ?? []
    }
    assert.deepEqual(labelled(true), ['CORSIA Eligible'])
    assert.deepEqual(labelled(true, true), ['CORSIA Eligible'])
    assert.deepEqual(labelled(true, false), [])
    assert.deepEqual(labelled(), [])
  })
})

describe('methodologies: each at most 600 characters', () => {
  test('one of exactly 600 characters is kept; one of 601 is left out with a warning, the others kept', () => {
    const warnings: string[] = []
    const context = { warn: (_field: string, reason: string) => { warnings.push(reason) } } as unknown as RowContext
    assert.deepEqual(protocols(`${'M'.repeat(600)}; VM0007`, context), ['M'.repeat(600), 'VM0007'])
    assert.deepEqual(protocols(`${'M'.repeat(601)}; VM0007`, context), ['VM0007'])
    assert.deepEqual(warnings, ['a methodology of 601 characters is longer than 600; left out'])
  })
})

describe('a short description: the first sentence when it has at most 240 characters', () => {
  test('a first sentence of exactly 240 characters is kept; of 241 it is not', () => {
    const of = (length: number) => `${'a'.repeat(length - 1)}. And a second sentence.`
    assert.equal(firstSentence(of(240))?.length, 240)
    assert.equal(firstSentence(of(241)), null)
  })
})

describe('coordinates: latitude -90 to 90, longitude -180 to 180, the ends included', () => {
  const position = (latitude: string, longitude: string) => {
    const read = readFiles(isometric, [{
      kind: 'projects',
      rows: [{
        id: 'prj_1',
        name: 'A removal project',
        short_code: 'TS26',
        protocol_slug: 'biochar',
        pathway: 'biochar',
        'location.latitude': latitude,
        'location.longitude': longitude
      }]
    }])
    const fields = read.draft('TS26').fields()
    return { at: [fields.latitude, fields.longitude], warnings: read.warnings.length }
  }

  test('-90 and 180 are a position (the South Pole on the antimeridian); 90.5 and -180.5 are not', () => {
    assert.deepEqual(position('-90', '180'), { at: [-90, 180], warnings: 0 })
    assert.deepEqual(position('90', '-180'), { at: [90, -180], warnings: 0 })
    assert.deepEqual(position('90.5', '-180.5'), { at: [null, null], warnings: 2 })
  })
})

describe('CARB reader: a row that issued nothing', () => {
  test('0 ARB Offset Credits Issued is no issuance; the row\'s retirements still count', () => {
    const read = readRows(arb, 'issuances', [{
      'OPR Project ID': 'CAR1011',
      'Offset Project Name': 'Forest project',
      'Project Type': 'U.S. Forest',
      'Reporting Period Start Date': '1/1/2019',
      'Reporting Period End Date': '12/31/2019',
      Vintage: '2019',
      'ARB Offset Credits Issued': '0',
      'Issuance Date': '4/5/2020',
      'CARB Issuance ID': 'CAFR1011-A',
      'Retired Voluntarily': '250'
    }])
    assert.deepEqual(ledger(read.draft('CAR1011')), [['retirement', null, 2019, 250]])
  })
})
