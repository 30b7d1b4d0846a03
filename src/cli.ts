import { createWriteStream } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { finished } from 'node:stream/promises'
import { parseArgs } from 'node:util'
import { exportProjects, ImportError, importProjects } from './catalogue/projects.import.ts'
import { loadConfig } from './config.ts'
import { exitOnStartupError, startServer } from './server.ts'
import { openStore, type Store } from './store/connect.ts'
import { migrateToLatest } from './store/migrate.ts'
import { VERSION } from './version.ts'

const HELP = `tonne ${VERSION}: carbon-offset catalogue and footprint calculator API

Usage:
  tonne serve                  start the HTTP server (migrates the database first)
  tonne migrate                bring the database schema up to date
  tonne import FILE [--replace]
                               upsert projects by id from a JSON array or NDJSON file; all or nothing.
                               --replace also removes every project not in the file
  tonne export [FILE]          write every project as a JSON array (to stdout without FILE)
  tonne --help | --version

Settings come from environment variables (README, "Configuration").`

/** Opens the configured database, brings it to the latest schema, runs `work`, and always closes it. */
async function withStore<T> (work: (store: Store, migrated: string[]) => Promise<T>): Promise<T> {
  const store = await openStore(loadConfig())
  try {
    const { applied } = await migrateToLatest(store.db)
    return await work(store, applied)
  } finally {
    await store.close()
  }
}

async function main (argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      replace: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
      version: { type: 'boolean', short: 'v', default: false }
    }
  })
  const [command, ...rest] = positionals
  if (values.version) return console.log(VERSION)
  if (values.help || command === undefined || command === 'help') return console.log(HELP)

  switch (command) {
    case 'serve':
      await startServer(loadConfig())
      return
    case 'migrate': {
      const applied = await withStore(async (_store, migrated) => migrated)
      console.log(applied.length === 0 ? 'The database schema is up to date.' : `Applied: ${applied.join(', ')}`)
      return
    }
    case 'import': {
      const file = rest[0]
      if (file === undefined) throw new UsageError('import needs a FILE')
      const text = await readFile(file, 'utf8')
      const result = await withStore(async (store) => await importProjects(store.db, text, { replace: values.replace }))
      console.log(`Imported ${result.imported} projects${result.replaced ? ' (the catalogue was replaced)' : ''}.`)
      return
    }
    case 'export': {
      const out = rest[0] === undefined ? process.stdout : createWriteStream(rest[0])
      const count = await withStore(async (store) => {
        let n = 0
        out.write('[')
        for await (const record of exportProjects(store.db)) {
          out.write(`${n === 0 ? '' : ','}\n${JSON.stringify(record)}`)
          n++
        }
        out.write('\n]\n')
        return n
      })
      if (out !== process.stdout) {
        out.end()
        await finished(out)
      }
      console.error(`Exported ${count} projects.`)
      return
    }
    default:
      throw new UsageError(`unknown command "${command}"`)
  }
}

class UsageError extends Error {}

try {
  await main(process.argv.slice(2))
} catch (error) {
  if (error instanceof UsageError || (error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    console.error(`tonne: ${(error as Error).message}\n\n${HELP}`)
    process.exit(2)
  }
  if (error instanceof ImportError) {
    console.error(`tonne import: nothing was changed. ${error.message}`)
    process.exit(1)
  }
  exitOnStartupError(error)
}
