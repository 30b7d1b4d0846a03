import { CompiledQuery, type ColumnDataType } from 'kysely'
import { databaseKind, type Db } from '../store/database.ts'

// Many rows into one table, compiled here rather than by the query builder: a million rows through the builder
// allocate a syntax tree per value, most of a streaming import's staging time and garbage. PostgreSQL takes one
// array per column (as many parameters as columns, whatever the rows: one round trip a batch); SQLite one
// statement text per batch size, kept for the few sizes a stream uses.

/**
 * A table's columns in order: name, SQL type, PostgreSQL's type of its values (for unnest), and 'null' where a value
 * may be null (every other column is NOT NULL). One list for the table and its INSERT.
 */
export type StagedColumns<Row> = ReadonlyArray<readonly [keyof Row & string, ColumnDataType, string, 'null'?]>

/** A temporary table an import stages rows in: created from its column list, and filled through `insert`. */
export class StagedInsert<Row> {
  readonly #table: string
  readonly #columns: StagedColumns<Row>
  readonly #primaryKey: (keyof Row & string) | undefined
  readonly #sqliteTexts = new Map<number, string>()

  constructor (table: string, columns: StagedColumns<Row>, primaryKey?: keyof Row & string) {
    this.#table = table
    this.#columns = columns
    this.#primaryKey = primaryKey
  }

  /** Creates the table, temporary: it goes with the import's connection. */
  async create (db: Db): Promise<void> {
    let table = db.schema.createTable(this.#table).temporary()
    for (const [name, type, , nullable] of this.#columns) {
      table = table.addColumn(name, type,
        (c) => name === this.#primaryKey ? c.primaryKey() : nullable === 'null' ? c : c.notNull())
    }
    await table.execute()
  }

  /** Rows per statement that keep SQLite under its 32,766 parameters. */
  get sqliteBatch (): number {
    return Math.floor(32_766 / this.#columns.length)
  }

  async insert (db: Db, rows: readonly Row[]): Promise<void> {
    if (rows.length === 0) return
    const into = `insert into ${this.#table} (${this.#columns.map(([c]) => c).join(', ')})`
    if (databaseKind(db) === 'postgres') {
      const text = `${into} select * from unnest(${this.#columns.map(([, , t], i) => `$${i + 1}::${t}[]`).join(', ')})`
      await db.executeQuery(CompiledQuery.raw(text, this.#columns.map(([c]) => rows.map((r) => r[c]))))
      return
    }
    for (let i = 0; i < rows.length; i += this.sqliteBatch) {
      const batch = rows.slice(i, i + this.sqliteBatch)
      let text = this.#sqliteTexts.get(batch.length)
      if (text === undefined) {
        const row = `(${this.#columns.map(() => '?').join(', ')})`
        text = `${into} values ${Array.from({ length: batch.length }, () => row).join(', ')}`
        if (this.#sqliteTexts.size < 4) this.#sqliteTexts.set(batch.length, text)
      }
      const values: unknown[] = []
      for (const r of batch) for (const [c] of this.#columns) values.push(r[c])
      await db.executeQuery(CompiledQuery.raw(text, values))
    }
  }
}
