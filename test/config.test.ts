import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { ConfigError, loadConfig } from '../src/config.ts'
import { tonne } from './cli.helpers.ts'
import { REPO_ROOT, tempDir } from './helpers.ts'

test('the hardening settings refuse bad values with a clear message (exit code 2)', async (t) => {
  const env = { DATA_DIR: path.join(tempDir(t), 'data') }
  const result = await tonne(['migrate'], {
    ...env,
    REQUEST_TIMEOUT: '0',
    HEADERS_TIMEOUT: 'soon',
    KEEP_ALIVE_TIMEOUT: '-5',
    MAX_CONNECTIONS: 'lots',
    RATE_LIMIT_ON_REDIS_ERROR: 'ignore',
    AUTH_FAILURE_LIMIT: '0',
    IMPORT_LOCK_WAIT: 'forever',
    DATABASE_STATEMENT_TIMEOUT: '9'
  })
  assert.equal(result.code, 2)
  assert.match(result.stderr, /Invalid configuration/)
  for (const name of ['REQUEST_TIMEOUT', 'HEADERS_TIMEOUT', 'KEEP_ALIVE_TIMEOUT', 'MAX_CONNECTIONS',
    'RATE_LIMIT_ON_REDIS_ERROR', 'AUTH_FAILURE_LIMIT', 'IMPORT_LOCK_WAIT', 'DATABASE_STATEMENT_TIMEOUT']) {
    assert.match(result.stderr, new RegExp(`${name} must be`), name)
  }
  const longer = await tonne(['migrate'], { ...env, REQUEST_TIMEOUT: '5', HEADERS_TIMEOUT: '6' })
  assert.equal(longer.code, 2)
  assert.match(longer.stderr, /HEADERS_TIMEOUT must not be longer than REQUEST_TIMEOUT/)
})

test('every setting src/config.ts reads is in README\'s configuration table', () => {
  const source = readFileSync(path.join(REPO_ROOT, 'src', 'config.ts'), 'utf8')
  const readme = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8')
  const settings = new Set([...source.matchAll(/(?:read|perMinute|seconds)\('([A-Z_]+)'/g)].map((m) => m[1]!))
  assert.ok(settings.size >= 20, `found ${settings.size} settings`)
  for (const setting of settings) assert.match(readme, new RegExp(`^\\| \`${setting}\` \\| [^|]+ \\|`, 'm'), setting)
})

test('the connection settings\' documented defaults, and the edges of TRUST_PROXY and MEDIA_SIGNING_SECRET', (t) => {
  const dir = tempDir(t)
  const config = (env: Record<string, string> = {}) => loadConfig({ DATA_DIR: dir, ...env })
  // README's configuration table: HEADERS_TIMEOUT 10 s, FIRST_BYTE_TIMEOUT 5 s, MAX_CONNECTIONS_PER_ADDRESS 100,
  // 0 when TRUST_PROXY is set.
  assert.equal(config().http.headersTimeoutMs, 10_000)
  assert.equal(config().http.firstByteTimeoutMs, 5000)
  assert.equal(config().http.maxConnectionsPerAddress, 100)
  assert.equal(config({ TRUST_PROXY: '1' }).http.maxConnectionsPerAddress, 0)
  assert.equal(config({ TRUST_PROXY: '10.0.0.0/8' }).http.maxConnectionsPerAddress, 0)
  // A hop count has one or two digits; a CIDR's prefix is at most 32 bits (IPv4) or 128 (IPv6).
  assert.equal(config({ TRUST_PROXY: '99' }).trustProxy, 99)
  assert.equal(config({ TRUST_PROXY: '10.0.0.1/32,::1/128' }).trustProxy, '10.0.0.1/32,::1/128')
  for (const trust of ['100', '10.0.0.1/33', '::1/129', 'proxy.example']) {
    assert.throws(() => config({ TRUST_PROXY: trust }), ConfigError, trust)
  }
  // A signing secret of 32 characters is enough; of 31, the start stops.
  assert.equal(config({ MEDIA_SIGNING_SECRET: 's'.repeat(32) }).media.signingSecret, 's'.repeat(32))
  assert.throws(() => config({ MEDIA_SIGNING_SECRET: 's'.repeat(31) }), /MEDIA_SIGNING_SECRET/)
})
