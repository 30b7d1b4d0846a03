import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { Kysely } from 'kysely'
import type { Config } from '../config.ts'
import type { Database, Db } from './database.ts'
import { openSqlite } from './sqlite-dialect.ts'

export interface Store {
  readonly db: Db
  readonly dialect: 'sqlite' | 'postgres'
  /** Where the data lives, for logs: a file path, never a password. */
  readonly location: string
  close(): Promise<void>
}

export const SQLITE_FILE_NAME = 'tonne.sqlite'

/** Opens the configured database: PostgreSQL when DATABASE_URL is set, else SQLite in DATA_DIR. */
export async function openStore (config: Pick<Config, 'dataDir' | 'databaseUrl'>): Promise<Store> {
  if (config.databaseUrl !== undefined) {
    throw new Error('DATABASE_URL (PostgreSQL) is not supported yet; unset it to use the embedded SQLite database')
  }
  mkdirSync(config.dataDir, { recursive: true })
  const file = path.join(config.dataDir, SQLITE_FILE_NAME)
  const { dialect } = openSqlite(file)
  const db = new Kysely<Database>({ dialect })
  return { db, dialect: 'sqlite', location: file, close: () => db.destroy() }
}
