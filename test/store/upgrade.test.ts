import assert from 'node:assert/strict'
import { test } from 'node:test'
import { Migrator, type Kysely } from 'kysely'
import { createKey } from '../../src/access/api-keys.service.ts'
import { buildApp } from '../../src/app.ts'
import { loadConfig } from '../../src/config.ts'
import { prepareDatabase, prepareParts } from '../../src/startup.ts'
import { openStore } from '../../src/store/connect.ts'
import * as catalogue0001 from '../../src/store/migrations/2026_11_22_0001_catalogue.ts'
import * as apiKeys0002 from '../../src/store/migrations/2026_11_22_0002_api_keys.ts'
import * as searchAndJson0003 from '../../src/store/migrations/2026_11_22_0003_search_and_json.ts'
import { databaseEnv, forEachDatabase } from '../databases.ts'
import { tempDir } from '../helpers.ts'

/**
 * Rows as the importer before migration 0005 wrote them: locations as given, unknown names added as countries.
 * Only the columns migration 0001 requires (and the JSON ones later migrations rewrite): the others stay null.
 */
function oldProject (id: number, location: string, vintages: number[]) {
  return {
    id,
    external_id: `OLD-${id}`,
    name: `Old project ${id}`,
    symbol: `OLD-${id}`,
    vintages: JSON.stringify(vintages),
    registry: 'VERRA',
    standard: 'VERRA_VCS',
    location,
    location_key: location.toLowerCase(),
    search_text: `old project ${id}`,
    // A project that gave no text, bundle or sale: what the importer wrote for none.
    description: '',
    project_developer: '',
    co_benefits: '',
    is_bundle: false,
    in_sale: false,
    bundles: '[]',
    item_json: '{"stale":true}'
  }
}

forEachDatabase((database) => {
  test(`a database from before migration 0005 keeps its projects [${database}]`, async (t) => {
    const config = loadConfig({
      DATA_DIR: tempDir(t), LOG_LEVEL: 'silent', ...await databaseEnv(t, database, { migrated: false })
    })
    const store = await openStore(config)
    t.after(async () => await store.close())
    const old = store.db as unknown as Kysely<any>
    const migrations = {
      '2026_11_22_0001_catalogue': catalogue0001,
      '2026_11_22_0002_api_keys': apiKeys0002,
      '2026_11_22_0003_search_and_json': searchAndJson0003
    }
    const migrator = new Migrator({ db: old, provider: { getMigrations: async () => migrations } })
    const { error } = await migrator.migrateToLatest()
    assert.equal(error, undefined)
    await old.insertInto('registries').values({ name_id: 'VERRA', verbose_name: 'Verra' }).execute()
    await old.insertInto('standards').values({ name_id: 'VERRA_VCS', verbose_name: 'VCS' }).execute()
    await old.insertInto('countries').values([
      { name: 'United States', name_key: 'united states', alpha2: null, alpha3: null },
      { name: 'Vietnam', name_key: 'vietnam', alpha2: null, alpha3: null },
      { name: 'Narnia', name_key: 'narnia', alpha2: null, alpha3: null }
    ]).execute()
    await old.insertInto('projects').values([
      oldProject(1, 'United States', [2019, 2020]), oldProject(2, 'United States of America', []),
      oldProject(3, 'Vietnam', [2021]), oldProject(4, 'Viet Nam', []), oldProject(5, 'Narnia', [2018, 2018]),
      oldProject(6, 'Türkiye', [])
    ]).execute()

    const settings = { ...config, loadBundledCatalogue: false, createInitialApiKey: false }
    await prepareDatabase(settings, store, () => undefined)

    const countries = await store.db.selectFrom('countries').selectAll()
      .where('name', 'in', ['United States', 'United States of America', 'Vietnam', 'Viet Nam', 'Narnia'])
      .orderBy('name').execute()
    assert.deepEqual(countries.map((c) => [c.name, c.alpha2, c.alpha3, c.name_key]), [
      ['Narnia', null, null, 'narnia'],
      ['United States', 'US', 'USA', 'united states'],
      ['Vietnam', 'VN', 'VNM', 'vietnam']
    ])
    const vintages = await store.db.selectFrom('project_vintages').select(['project_id', 'vintage', 'issued'])
      .orderBy('project_id').orderBy('vintage').execute()
    assert.deepEqual(vintages.map((v) => ({ ...v })), [
      { project_id: 1, vintage: 2019, issued: null }, { project_id: 1, vintage: 2020, issued: null },
      { project_id: 3, vintage: 2021, issued: null }, { project_id: 5, vintage: 2018, issued: null }
    ])

    const { key } = await createKey(store.db, { name: 'reader', scopes: ['catalogue:read'] })
    const app = await buildApp(await prepareParts(config, store))
    t.after(async () => await app.close())
    const headers = { authorization: `Bearer ${key}` }
    const list = async (query: string) =>
      (await app.inject({ url: `/api/v1/commerce/products/?${query}`, headers })).json()
    const all = await list('ordering=id')
    assert.deepEqual(all.results.map((p: { location: string }) => p.location),
      ['United States', 'United States', 'Vietnam', 'Vietnam', 'Narnia', 'Türkiye'])
    const rebuilt = all.results.every((p: { created_at: string }) => /^\d{4}-\d\d-\d\dT/.test(p.created_at))
    assert.ok(rebuilt, 'the stored JSON was rebuilt')
    assert.deepEqual((await list('location=usa')).results.map((p: { id: number }) => p.id), [1, 2])
    assert.deepEqual((await list('location=Viet%20Nam')).results.map((p: { id: number }) => p.id), [3, 4])
    assert.deepEqual((await list('location=NARNIA')).results.map((p: { id: number }) => p.id), [5])
    assert.deepEqual((await list('vintage=2018')).results.map((p: { id: number }) => p.id), [5])
  })
})
