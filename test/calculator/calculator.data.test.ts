import assert from 'node:assert/strict'
import {
  appendFileSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync,
  writeFileSync
} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, test, type TestContext } from 'node:test'
import { stringify } from 'csv-stringify/sync'
import fc from 'fast-check'
import { loadCalculatorData } from '../../src/calculator/calculator.data.ts'
import { parseCsv } from '../../src/reference/csv.ts'
import { listCountries, resolveCountry } from '../../src/calculator/countries.ts'
import { CalculatorInputError } from '../../src/calculator/calculator.errors.ts'

const REPO_DATA = path.join(import.meta.dirname, '..', '..', 'data')
const data = loadCalculatorData()

/** A copy of the repo's data/ folder that a test may damage. */
function dataCopy (t: TestContext): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tonne-calculator-data-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  for (const folder of ['calculator', 'countries']) {
    cpSync(path.join(REPO_DATA, folder), path.join(dir, folder),
      { recursive: true })
  }
  return dir
}

function edit (dir: string, file: string, change: (text: string) => string): void {
  const target = path.join(dir, file)
  writeFileSync(target, change(readFileSync(target, 'utf8')))
}

describe('loadCalculatorData: start-up validation', () => {
  test('loads the shipped data: 201 countries (Taiwan included), every factor, 6,000+ airports', () => {
    assert.equal(data.countries.size, 201)
    assert.ok(data.airports.size > 6000)
    assert.ok(data.factors.has('desnz:flight.long_haul.economy.with_rf'))
    assert.equal(data.factors.get('desnz:flight.long_haul.economy.with_rf')?.value, 0.11704)
  })

  // `at` picks the changed line: the error must name its record (the header is record 1; no shipped file has a
  // line break inside a field, so record n is line n).
  const failures: Array<{
    name: string, file: string, change: (text: string) => string, message: RegExp, at?: (line: string) => boolean
  }> = [
    {
      name: 'a non-numeric factor',
      file: 'calculator/desnz_2025_factors.csv',
      change: (text) => text.replace('0.11704,', 'n/a,'),
      message: /desnz_2025_factors\.csv: record \d+: column "value" is not a number \("n\/a"\)/,
      at: (line) => line.includes(',n/a,')
    },
    {
      name: 'an impossible household size',
      file: 'calculator/household_size.csv',
      change: (text) => text.replace(',DYB,2.14,', ',DYB,0.5,'),
      message: new RegExp('household_size\\.csv: record \\d+: column "avg_household_size_persons" = 0\\.5 ' +
        'is outside the plausible range'),
      at: (line) => line.includes(',DYB,0.5,')
    },
    {
      name: 'disagreeing region evidence',
      file: 'calculator/taiwan_region_override.csv',
      change: (text) =>
        text.replace('TWN,Taiwan,Asia,Eastern Asia,142,030,Our World',
          'TWN,Taiwan,Asia,South-eastern Asia,142,035,Our World'),
      message: /taiwan_region_override\.csv: record \d+: the evidence for TWN disagrees/,
      at: (line) => line.includes('South-eastern Asia')
    },
    {
      name: 'a blank value',
      file: 'calculator/electricity_carbon_intensity.csv',
      change: (text) => text.replace('DEU,Germany,2024,344.1', 'DEU,Germany,2024,'),
      message: new RegExp('electricity_carbon_intensity\\.csv: record \\d+: ' +
        'column "carbon_intensity_elec_gco2_per_kwh" is not a number'),
      at: (line) => line.startsWith('DEU,Germany,2024,')
    },
    {
      name: 'an implausible value',
      file: 'calculator/co2_per_capita.csv',
      change: (text) => text.replace('DEU,Germany,2023,7.051', 'DEU,Germany,2023,7051'),
      message: /co2_per_capita\.csv: record \d+: column "co2_per_capita_t" = 7051 is outside the plausible range/,
      at: (line) => line.startsWith('DEU,Germany,2023,7051')
    },
    {
      name: 'a short row',
      file: 'calculator/parameters.csv',
      change: (text) => text + 'energy.extra,1\n',
      message: /parameters\.csv: record \d+ has 2 fields, expected 6/,
      at: (line) => line === 'energy.extra,1'
    },
    {
      name: 'a renamed column',
      file: 'calculator/clothing_factors.csv',
      change: (text) => text.replace('key,value,unit', 'key,amount,unit'),
      message: /clothing_factors\.csv: unexpected header/
    },
    {
      name: 'a required factor removed',
      file: 'calculator/desnz_2025_factors.csv',
      change: (text) => text.split('\n').filter((line) => !line.startsWith('rail.national,')).join('\n'),
      message: /desnz_2025_factors\.csv: required factor "rail\.national" is missing/
    },
    {
      name: 'a duplicated key',
      file: 'calculator/parameters.csv',
      change: (text) => text + text.split('\n')[1] + '\n',
      message: /parameters\.csv: duplicate key "param:flight\.distance\.short_haul"/
    },
    {
      name: 'an unknown source',
      file: 'calculator/parameters.csv',
      change: (text) =>
        text.replace('energy.heat_pump_cop,2.8,kWh heat per kWh electricity,unverified,energy-systems-catapult-eoh',
          'energy.heat_pump_cop,2.8,kWh heat per kWh electricity,unverified,nobody'),
      message: /parameters\.csv: "param:energy\.heat_pump_cop" cites unknown source "nobody"/
    },
    {
      name: 'a missing upstream factor',
      file: 'calculator/desnz_2025_factors.csv',
      change: (text) => text.split('\n').filter((line) => !line.startsWith('wtt.car.average.petrol,')).join('\n'),
      message: /desnz_2025_factors\.csv: required factor "wtt\.car\.average\.petrol" is missing/
    },
    {
      name: 'an unterminated quote',
      file: 'calculator/sources.csv',
      change: (text) => text + 'x,"broken\n',
      message: /sources\.csv: line \d+: unterminated quoted field/
    },
    {
      name: 'a malformed airport',
      file: 'calculator/airports.csv',
      change: (text) => text.replace(/\nFRA,([^\n]*),50\.033333,/, '\nFRA,$1,95,'),
      message: /airports\.csv: record \d+: column "latitude" = 95 is outside the plausible range/,
      at: (line) => line.startsWith('FRA,')
    },
    {
      name: 'a missing World row',
      file: 'calculator/meat_supply_per_capita.csv',
      change: (text) => text.split('\n').filter((line) => !line.startsWith('OWID_WRL')).join('\n'),
      message: /meat_supply_per_capita\.csv: the World row \(OWID_WRL\) is missing/
    }
  ]
  for (const failure of failures) {
    test(`refuses to start on ${failure.name}, naming the file`, (t) => {
      const dir = dataCopy(t)
      edit(dir, failure.file, failure.change)
      assert.throws(() => loadCalculatorData(dir), failure.message)
      if (failure.at !== undefined) {
        const lines = readFileSync(path.join(dir, failure.file), 'utf8').split('\n')
        const record = lines.findIndex(failure.at) + 1
        assert.equal(lines.filter(failure.at).length, 1, 'the changed line is found once')
        assert.throws(() => loadCalculatorData(dir), (error: Error) =>
          error.message.includes(`: record ${record}`) || assert.fail(`not record ${record}: ${error.message}`))
      }
    })
  }

  test('loads no Scarborough diet table: the diet is Poore and Nemecek\'s, so no `diet:` factor and no unused ' +
    'Scarborough parameter is kept', () => {
    const unused = [...data.factors.keys()].filter((key) => key.startsWith('diet:') ||
      ['param:diet.reference_kcal_per_day', 'param:diet.low_meat_below_g_per_day'].includes(key))
    assert.deepEqual(unused, [])
    // The meat-group limit the diet does use still cites the 2023 study.
    assert.equal(data.factors.get('param:diet.high_meat_min_g_per_day')?.source, 'scarborough-2023')
  })

  test('refuses to start on a missing file, naming it', (t) => {
    const dir = dataCopy(t)
    rmSync(path.join(dir, 'calculator', 'clothing_factors.csv'))
    assert.throws(() => loadCalculatorData(dir),
      /data\/calculator\/clothing_factors\.csv: cannot read the calculator data file/)
  })

  test('refuses an empty file', (t) => {
    const dir = dataCopy(t)
    writeFileSync(path.join(dir, 'calculator', 'clothing_factors.csv'), '')
    assert.throws(() => loadCalculatorData(dir), /clothing_factors\.csv: the file is empty/)
  })

  test('refuses a blank line in the middle of a file', (t) => {
    const dir = dataCopy(t)
    appendFileSync(path.join(dir, 'calculator', 'co2_per_capita.csv'), '\nZZZ,Nowhere,2023,1\n')
    assert.throws(() => loadCalculatorData(dir), /co2_per_capita\.csv: record \d+ has 1 fields/)
  })
})

describe('csv reader', () => {
  test('reads quoted fields with commas, doubled quotes and line breaks', () => {
    const table = parseCsv('a,b\n"x, y","say ""hi""\nthere"\r\n', 'test.csv')
    assert.deepEqual(table.rows, [{ a: 'x, y', b: 'say "hi"\nthere' }])
  })

  test('rejects a quote inside an unquoted field', () => {
    assert.throws(() => parseCsv('a,b\nx"y,z\n', 'test.csv'), /test\.csv: line 2: a quote inside an unquoted field/)
  })

  test('reads back any table csv-stringify writes, quoted or not, with either line ending and a BOM', () => {
    // Headers are distinct and non-empty; fields are any text, separators, quotes and line breaks included.
    const text = fc.string({ unit: fc.constantFrom('a', 'b', ',', '"', '\n', '\r', ' ', 'é', '1') })
    const table = fc.integer({ min: 1, max: 4 }).chain((columns) => fc.record({
      header: fc.uniqueArray(text.filter((name) => name !== ''), { minLength: columns, maxLength: columns }),
      rows: fc.array(fc.array(text, { minLength: columns, maxLength: columns }), { maxLength: 5 }),
      quoted: fc.boolean(),
      crlf: fc.boolean(),
      bom: fc.boolean()
    }))
    fc.assert(fc.property(table, ({ header, rows, quoted, crlf, bom }) => {
      // A one-column row holding '' would be a blank line, which the reader refuses on purpose.
      fc.pre(header.length > 1 || rows.every(([field]) => field !== ''))
      // csv-stringify quotes a line break only when it is its own record delimiter; any break must be quoted.
      const csv = stringify([header, ...rows],
        { quoted, quoted_match: /[\r\n]/, record_delimiter: crlf ? 'windows' : 'unix' })
      const parsed = parseCsv(`${bom ? '\ufeff' : ''}${csv}`, 'generated.csv')
      assert.deepEqual(parsed.header, header)
      assert.deepEqual(parsed.rows, rows.map((row) => Object.fromEntries(header.map((name, i) => [name, row[i]]))))
    }), { numRuns: 500 })
  })

  test('names the file and line of every malformation', () => {
    const refused: Array<[string, RegExp]> = [
      ['a,b\n"x,y\n', /t\.csv: line 3: unterminated quoted field/],
      ['a,b\n"x"y,z\n', /t\.csv: line 2: unexpected character after a closing quote/],
      ['a,b\n"x\ny"z,1\n', /t\.csv: line 3: unexpected character after a closing quote/],
      ['a,b\nx,y"\n', /t\.csv: line 2: a quote inside an unquoted field/],
      ['a,b\r\n1,2\r\n3\r\n', /t\.csv: record 3 has 1 fields, expected 2/],
      ['a,a\n1,2\n', /t\.csv: header has an empty or repeated column name "a"/],
      ['\ufeff', /t\.csv: the file is empty/]
    ]
    for (const [text, error] of refused) assert.throws(() => parseCsv(text, 't.csv'), error, JSON.stringify(text))
    // The last line may end without a line break; a field may be empty.
    assert.deepEqual(parseCsv('a,b\n,""', 't.csv').rows, [{ a: '', b: '' }])
  })
})

describe('countries', () => {
  const countries = listCountries(data)

  test('sorted by name the way a person sorts (Intl.Collator en), accents not last', () => {
    const collator = new Intl.Collator('en')
    const names = countries.map((c) => c.country_name)
    assert.deepEqual(names, [...names].sort(collator.compare))
    const ivory = names.indexOf('Côte d\'Ivoire')
    assert.ok(ivory > 0 && names[ivory - 1]?.startsWith('Costa Rica') === true,
      'Côte d\'Ivoire sorts after Costa Rica, not at the end')
    assert.equal(names.at(-1), 'Zimbabwe')
  })

  test('each has an alpha-3 code, a UN M49 region and sub-region, and a measurement system', () => {
    const regions = new Set(['Africa', 'Americas', 'Asia', 'Europe', 'Oceania'])
    for (const country of countries) {
      assert.match(country.country_code, /^[A-Z]{3}$/)
      assert.ok(regions.has(country.region), `${country.country_code} region ${country.region}`)
      assert.ok(country.sub_region.length > 0)
    }
    assert.equal(new Set(countries.map((c) => c.country_code)).size, countries.length)
  })

  test('imperial for USA, LBR and MMR, metric elsewhere', () => {
    const imperial = countries.filter((c) => c.measurement_system === 'imperial').map((c) => c.country_code).sort()
    assert.deepEqual(imperial, ['LBR', 'MMR', 'USA'])
  })

  test('every supported country has the data every endpoint needs', () => {
    for (const country of data.countries.values()) {
      assert.ok(country.territorialCo2.value >= 0)
      assert.ok(country.gridIntensity.value >= 0)
    }
  })

  test('resolveCountry is case-insensitive and explains unknown and unsupported codes', () => {
    assert.equal(resolveCountry(data, 'deu').code, 'DEU')
    const reject = (code: string, detail: RegExp) => assert.throws(() => resolveCountry(data, code), (error: unknown) =>
      error instanceof CalculatorInputError && error.kind === 'unknown_country' &&
        error.parameter === 'country_code' && detail.test(error.message))
    reject('XYZ', /Unknown country_code "XYZ"/)
    reject('DE', /not an alpha-2 code/)
    reject('ESH', /not supported: no per-capita CO2 figure/)
    reject('PRI', /not supported: no per-capita CO2 figure/)
    assert.equal(resolveCountry(data, 'twn').region, 'Asia')
  })
})

describe('shipped data files', () => {
  test('every source cited by a factor has a licence, and every file keeps its provenance column', () => {
    for (const factor of data.factors.values()) {
      const source = data.sources.get(factor.source)
      assert.ok(source !== undefined && source.licence.length > 0, `${factor.key} -> ${factor.source}`)
    }
    const desnz = parseCsv(readFileSync(path.join(REPO_DATA, 'calculator', 'desnz_2025_factors.csv'), 'utf8'), 'desnz')
    assert.ok(desnz.header.includes('provenance'))
  })

  test('values read from secondary sources stay marked unverified; DESNZ values checked against the flat file are ' +
    'published', () => {
    for (const key of ['param:diet.consumer_waste_share', 'clothing:levis_501.cradle_to_retail',
      'param:energy.residential_electricity_twh.CHN', 'param:energy.green_tariff.wind_onshore']) {
      assert.equal(data.factors.get(key)?.status, 'unverified', key)
    }
    for (const key of ['desnz:flight.long_haul.economy.with_rf', 'desnz:fuel.natural_gas.kwh_gross_cv',
      'desnz:ev.bev.average.kwh_per_km', 'param:flight.distance.long_haul']) {
      assert.equal(data.factors.get(key)?.status, 'published', key)
    }
    assert.equal(data.factors.get('param:flight.band.short_haul_up_to_km')?.status, 'assumption')
  })

  test('no code, test, script or data file in the repository reaches outside it for data', () => {
    // Built from parts so that this file does not match itself.
    const outside = [['..', 'shared'].join('/'), ['', 'work', 'shared'].join('/')]
    const root = path.join(import.meta.dirname, '..', '..')
    const skip = new Set(['node_modules', '.git', 'test-output', 'var'])
    const files: string[] = []
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir)) {
        if (skip.has(name)) continue
        const full = path.join(dir, name)
        if (statSync(full).isDirectory()) walk(full)
        else files.push(full)
      }
    }
    walk(root)
    assert.ok(files.length > 100, `${files.length} files scanned`)
    for (const file of files) {
      const text = readFileSync(file, 'utf8')
      for (const fragment of outside) {
        assert.ok(!text.includes(fragment),
        `${path.relative(root, file)} mentions ${fragment}`)
      }
    }
  })
})
