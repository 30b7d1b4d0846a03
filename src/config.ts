import path from 'node:path'

/**
 * The service's settings. This module is the only reader of `process.env`: everything
 * else receives a `Config`. Bad values stop the start with one message listing every problem.
 */
export interface Config {
  readonly host: string
  readonly port: number
  /** Everything the service writes lives here: the SQLite database, later media and secrets. */
  readonly dataDir: string
  /** `postgres://…` selects PostgreSQL; unset keeps the embedded SQLite database in `dataDir`. */
  readonly databaseUrl: string | undefined
  readonly logLevel: LogLevel
  /** Base for absolute links (pagination); unset means "derive from the request's Host". */
  readonly publicUrl: string | undefined
  /** Load the bundled real catalogue into an empty database on first start. */
  readonly loadBundledCatalogue: boolean
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const
export type LogLevel = typeof LOG_LEVELS[number]

export class ConfigError extends Error {
  readonly problems: string[]
  constructor (problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`)
    this.name = 'ConfigError'
    this.problems = problems
  }
}

type Env = Readonly<Record<string, string | undefined>>

/** Documented in the README's configuration table; keep the two in step. */
export function loadConfig (env: Env = process.env, cwd = process.cwd()): Config {
  const problems: string[] = []
  const read = (name: string): string | undefined => {
    const value = env[name]?.trim()
    return value === undefined || value === '' ? undefined : value
  }

  const port = parseInteger(read('PORT') ?? '3000', 0, 65535)
  if (port === undefined) problems.push(`PORT must be an integer from 0 to 65535, got "${read('PORT')}"`)

  const logLevel = read('LOG_LEVEL') ?? 'info'
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`)
  }

  const databaseUrl = read('DATABASE_URL')
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problems.push('DATABASE_URL must be a postgres:// or postgresql:// URL (leave it unset for the embedded SQLite database)')
  }

  const publicUrl = read('PUBLIC_URL')
  if (publicUrl !== undefined && !isHttpUrl(publicUrl)) {
    problems.push(`PUBLIC_URL must be an absolute http(s) URL, got "${publicUrl}"`)
  }

  const loadBundledCatalogue = parseBoolean(read('LOAD_BUNDLED_CATALOGUE') ?? 'true')
  if (loadBundledCatalogue === undefined) {
    problems.push(`LOAD_BUNDLED_CATALOGUE must be true or false, got "${read('LOAD_BUNDLED_CATALOGUE')}"`)
  }

  if (problems.length > 0) throw new ConfigError(problems)

  return Object.freeze({
    host: read('HOST') ?? '127.0.0.1',
    port: port!,
    dataDir: path.resolve(cwd, read('DATA_DIR') ?? './var'),
    databaseUrl,
    logLevel: logLevel as LogLevel,
    publicUrl: publicUrl?.replace(/\/+$/, ''),
    loadBundledCatalogue: loadBundledCatalogue!
  })
}

function parseInteger (text: string, min: number, max: number): number | undefined {
  if (!/^\d+$/.test(text)) return undefined
  const value = Number(text)
  return value >= min && value <= max ? value : undefined
}

function parseBoolean (text: string): boolean | undefined {
  const lower = text.toLowerCase()
  if (['true', '1', 'yes'].includes(lower)) return true
  if (['false', '0', 'no'].includes(lower)) return false
  return undefined
}

function isHttpUrl (text: string): boolean {
  try {
    const url = new URL(text)
    return url.protocol === 'http:' || url.protocol === 'https:'
  } catch {
    return false
  }
}
