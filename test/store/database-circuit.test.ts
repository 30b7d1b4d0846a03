import assert from 'node:assert/strict'
import { test } from 'node:test'
import pg from 'pg'
import { isUnavailable } from '../../src/store/availability.ts'
import { DatabaseCircuit } from '../../src/store/database-circuit.ts'
import { createPostgresDatabase, TEST_DATABASES } from '../databases.ts'

// A full pool is load, not an outage (issue 34, N1): a request that waits too long for a connection is refused
// (503), but the circuit stays closed, so the queries of every other request go on.
test('a wait for a pool connection that times out does not open the circuit', {
  skip: !TEST_DATABASES.includes('postgres') && 'PostgreSQL suites are off (TONNE_TEST_DATABASES)'
}, async (t) => {
  const url = await createPostgresDatabase(t)
  // pg-pool's one timeout covers both making a connection and waiting for a free one. The first connection
  // gets time enough for a loaded machine (a 50 ms limit failed CI there); only the wait for the second is short.
  const pool = new pg.Pool({ connectionString: url, max: 1, connectionTimeoutMillis: 30_000 })
  const circuit = new DatabaseCircuit(async () => undefined)
  const wrapped = circuit.wrap(pool)
  t.after(async () => { await wrapped.end() })
  const held = await wrapped.connect()
  pool.options.connectionTimeoutMillis = 50
  try {
    const refused = await wrapped.connect().then(() => undefined, (error: unknown) => error)
    assert.ok(refused instanceof Error, 'the second connection waits past its timeout')
    assert.ok(isUnavailable(refused), 'a wait past the timeout is answered 503')
    assert.equal(circuit.open, false)
    // The query in flight on the held connection is not given up, and the pool serves the next one.
    const { rows } = await held.query('select 1 as one', [])
    assert.deepEqual(rows, [{ one: 1 }])
  } finally {
    held.release()
  }
  const next = await wrapped.connect()
  assert.deepEqual((await next.query('select 2 as two', [])).rows, [{ two: 2 }])
  next.release()
})
