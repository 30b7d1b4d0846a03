// Opens N connections to a PostgreSQL server and holds them until stopped (Ctrl-C), to prove that
// the test suite (or a deployment) fits beside other users of the server's max_connections.
//
//   npx node scripts/hold-postgres-connections.ts [N=60] [URL=postgres://postgres@127.0.0.1:5432/postgres]
//
// Then, in another terminal: npm test (see docs/architecture.md, "PostgreSQL connections").
import pg from 'pg'

const count = Number(process.argv[2] ?? '60')
const url = process.argv[3] ?? 'postgres://postgres@127.0.0.1:5432/postgres'
if (!Number.isInteger(count) || count < 1) {
  console.error(`N must be a whole number of connections, got "${process.argv[2]}"`)
  process.exit(2)
}

const clients: pg.Client[] = []
for (let i = 0; i < count; i++) {
  const client = new pg.Client({ connectionString: url, application_name: 'hold-postgres-connections' })
  try {
    await client.connect()
  } catch (error) {
    console.error(`connection ${i + 1} of ${count} failed: ${(error as Error).message}`)
    await Promise.all(clients.map(async (c) => await c.end()))
    process.exit(1)
  }
  // A dropped connection no longer counts against the server: say so, and stop.
  client.on('error', (error) => {
    console.error(`a held connection failed: ${error.message}`)
    process.exit(1)
  })
  clients.push(client)
}
const { rows } = await clients[0]!.query<{ used: number, max: number }>(
  "select count(*)::int as used, current_setting('max_connections')::int as max from pg_stat_activity")
console.log(
  `holding ${count} connections; the server has ${rows[0]!.used} of ${rows[0]!.max} in use. Ctrl-C to let go.`)

const stop = async () => {
  await Promise.all(clients.map(async (c) => await c.end().catch(() => undefined)))
  process.exit(0)
}
process.once('SIGINT', () => { stop().catch(() => process.exit(1)) })
process.once('SIGTERM', () => { stop().catch(() => process.exit(1)) })
