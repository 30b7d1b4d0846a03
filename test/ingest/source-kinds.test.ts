import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { ConfigError, loadConfig, parseDuration } from '../../src/config.ts'
import { OFFSETSDB_LATEST_URL, parseSyncSources } from '../../src/ingest/sync/source-kinds.ts'

// SYNC_SOURCES, SYNC_INTERVAL and SYNC_MAX_MB as an operator writes them (README, "Configuration").

describe('sync settings', () => {
  test('kind=URL entries, separated by commas or white space; a bare URL is OffsetsDB\'s archive', () => {
    assert.deepEqual(parseSyncSources([`${OFFSETSDB_LATEST_URL},  verra=https://example.org/v.csv\n` +
      'gold-standard=http://127.0.0.1:8080/gs.csv']), {
      sources: [
        { kind: 'offsetsdb', url: OFFSETSDB_LATEST_URL },
        { kind: 'verra', url: 'https://example.org/v.csv' },
        { kind: 'gold-standard', url: 'http://127.0.0.1:8080/gs.csv' }
      ],
      problems: []
    })
    assert.deepEqual(parseSyncSources(['']), { sources: [], problems: [] })
  })

  test('an unknown kind, a URL that is not http(s) or carries a password, a kind given twice: each a problem', () => {
    const { sources, problems } = parseSyncSources(['registry=https://a.test/x', 'verra=ftp://a.test/x',
      'verra=https://user:secret@a.test/x', 'verra', 'acr=https://a.test/1', 'acr=https://a.test/2'])
    assert.deepEqual(sources, [{ kind: 'acr', url: 'https://a.test/1' }])
    assert.equal(problems.length, 5)
    assert.match(problems[0]!, /unknown source kind "registry"/)
    assert.match(problems[1]!, /absolute http\(s\) URL/)
    assert.match(problems[2]!, /absolute http\(s\) URL/)
    assert.match(problems[3]!, /"verra" is neither kind=URL nor a URL/)
    assert.match(problems[4]!, /acr is given twice/)
  })

  test('SYNC_INTERVAL: seconds or 90s, 30m, 6h, 1d; from 60 s to 7 days; 6 hours by default', () => {
    assert.deepEqual(['3600', '90s', '30m', '6h', '1d', '2 h', 'PT1H', '1.5h', ''].map(parseDuration),
      [3_600_000, 90_000, 1_800_000, 21_600_000, 86_400_000, 7_200_000, undefined, undefined, undefined])
    const config = (env: Record<string, string>) => loadConfig({ DATA_DIR: '/nowhere', ...env })
    assert.equal(config({}).sync.intervalMs, 6 * 3_600_000)
    assert.deepEqual(config({}).sync.sources, [])
    assert.equal(config({ SYNC_MAX_MB: '5' }).sync.maxBytes, 5 * 1024 * 1024)
    for (const bad of ['59', '8d', 'soon']) {
      assert.throws(() => config({ SYNC_INTERVAL: bad }), (error: unknown) =>
        error instanceof ConfigError && /SYNC_INTERVAL must be/.test(error.problems.join()))
    }
    assert.throws(() => config({ SYNC_SOURCES: 'nowhere=https://a.test/x', SYNC_MAX_MB: '0' }),
      (error: unknown) => error instanceof ConfigError && error.problems.length === 2)
  })
})
