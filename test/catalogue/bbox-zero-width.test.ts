import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { forEachDatabase } from '../databases.ts'
import { buildTestApp } from '../helpers.ts'
import { project } from '../fixtures/projects.ts'

const GEOJSON = '/api/v1/commerce/products/geojson/'

forEachDatabase((database) => {
  describe(`bbox edges [${database}]`, () => {
    test('a zero-width box (minLon = maxLon) is one meridian, not a box across the antimeridian', async (t) => {
      const records = [
        project(1, { latitude: 0, longitude: 10 }),
        project(2, { latitude: 45, longitude: 10 }),
        project(3, { latitude: 0, longitude: 9.5 }),
        project(4, { latitude: 0, longitude: 170 }),
        project(5, { latitude: 0, longitude: -170 })
      ]
      const { inject } = await buildTestApp(t, { database, records })
      const ids = async (bbox: string) => {
        const response = await inject(`${GEOJSON}?bbox=${bbox}`)
        assert.equal(response.statusCode, 200, response.body)
        return response.json<{ features: Array<{ id: number }> }>().features.map((f) => f.id).sort((a, b) => a - b)
      }
      assert.deepEqual(await ids('10,-90,10,90'), [1, 2])
      assert.deepEqual(await ids('10,0,10,0'), [1])
      // A box that really crosses it still does.
      assert.deepEqual(await ids('160,-10,-160,10'), [4, 5])
    })

    test('a box across the antimeridian takes in both its edge meridians, as every box does', async (t) => {
      const records = [project(1, { latitude: 0, longitude: 170 }), project(2, { latitude: 0, longitude: -170 })]
      const { inject } = await buildTestApp(t, { database, records })
      const ids = async (bbox: string) =>
        (await inject(`${GEOJSON}?bbox=${bbox}`)).json<{ features: Array<{ id: number }> }>().features
          .map((f) => f.id).sort((a, b) => a - b)
      assert.deepEqual(await ids('170,-10,-170,10'), [1, 2])
      assert.deepEqual(await ids('170,-10,-175,10'), [1])
      assert.deepEqual(await ids('175,-10,-170,10'), [2])
    })
  })
})
