import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, test } from 'node:test'
import type { Static } from 'typebox'
import type { Source, SourceListSchema } from '../../src/catalogue/sources.schemas.ts'
import { tonne } from '../cli.helpers.ts'
import { forEachDatabase } from '../databases.ts'
import { fileServer, servedFile } from '../support/file-server.ts'
import { RAW, type Report } from '../support/registries.ts'
import { workspace, type Workspace } from '../support/workspace.ts'

// `tonne sync` over a local HTTP server: the real download, the real registry import, the sources list read back
// over the API. The retries, timeouts and lease are tested with a controllable clock in sync.test.ts.

const VERRA_PROJECTS = path.join(RAW, 'verra', 'projects.csv')
const LAST_MODIFIED = 'Wed, 25 Nov 2026 08:00:00 GMT'

async function sources (ws: Workspace): Promise<Source[]> {
  const [body] = await ws.api(['/api/v1/commerce/sources/'])
  const list = JSON.parse(body!) as Static<typeof SourceListSchema>
  assert.equal(list.count, list.results.length)
  return list.results
}

async function projectCount (ws: Workspace): Promise<number> {
  const [body] = await ws.api(['/api/v1/commerce/products/?limit=1'])
  return (JSON.parse(body!) as { count: number }).count
}

forEachDatabase((database) => {
  describe(`tonne sync (${database})`, () => {
    test('imports a registry export as `tonne import --from` does; then a 304, then the same bytes, change nothing',
      async (t) => {
        const bytes = readFileSync(VERRA_PROJECTS)
        const server = await fileServer(t)
        server.routes.set('/verra/projects.csv', servedFile(bytes, { etag: '"v1"', lastModified: LAST_MODIFIED }))
        const ws = await workspace(t, database)
        const url = server.url('/verra/projects.csv')

        // What the manual import of the same file makes, in a workspace of its own.
        const manual = await workspace(t, database)
        const reference = await tonne(['import', '--from', 'verra', VERRA_PROJECTS, '--json'], manual.env)
        assert.equal(reference.code, 0, reference.stderr)
        const expected = JSON.parse(reference.stdout) as Report
        assert.ok(expected.created > 10)

        const first = await tonne(['sync', `verra=${url}`], ws.env)
        assert.equal(first.code, 0, first.stderr)
        assert.match(first.stdout,
          new RegExp(`^verra \\(${url}\\): imported \\(${expected.created} new, 0 updated, 0 unchanged\\)`))
        assert.equal(await projectCount(ws), await projectCount(manual))
        const [synced] = await sources(ws)
        const times = { last_checked_at: undefined, last_changed_at: undefined, attribution: undefined }
        assert.deepEqual({ ...synced, ...times }, {
          name: 'verra',
          kind: 'verra',
          url,
          last_checked_at: undefined,
          last_changed_at: undefined,
          data_as_of: '2026-11-25T08:00:00.000Z',
          sha256: createHash('sha256').update(bytes).digest('hex'),
          etag: '"v1"',
          last_status: 'changed',
          last_error: null,
          // What the catalogue marks as held from the source (none on a registry import yet: see the report).
          projects: synced!.projects,
          transactions: synced!.transactions,
          attribution: undefined
        })
        assert.equal(synced!.last_changed_at, synced!.last_checked_at)
        assert.match(synced!.attribution!, /Verra/)
        // The download's temporary folder is gone.
        assert.deepEqual(readdirSync(ws.env.DATA_DIR!).filter((name) => name.startsWith('.sync-')), [])

        const second = await tonne(['sync', `verra=${url}`], ws.env)
        assert.equal(second.code, 0, second.stderr)
        assert.equal(server.requests.at(-1)?.ifNoneMatch, '"v1"')
        assert.equal(server.requests.at(-1)?.ifModifiedSince, LAST_MODIFIED)
        assert.match(second.stdout, /^verra \(.*\): not modified since the last sync/)
        const [checked] = await sources(ws)
        assert.equal(checked!.last_status, 'not_modified')
        assert.equal(checked!.last_changed_at, synced!.last_changed_at)
        assert.equal(checked!.sha256, synced!.sha256)

        // The server forgot its validators, and sends the same bytes: nothing is imported.
        server.routes.set('/verra/projects.csv', servedFile(bytes, { etag: '"v2"' }))
        const third = await tonne(['sync', `verra=${url}`], ws.env)
        assert.equal(third.code, 0, third.stderr)
        assert.match(third.stdout, /^verra \(.*\): unchanged: the same bytes as the last import/)
        const [same] = await sources(ws)
        assert.deepEqual([same!.last_status, same!.etag, same!.last_changed_at], ['unchanged', '"v2"',
          synced!.last_changed_at])
        assert.equal(await projectCount(ws), await projectCount(manual))
      })

    test('a failed sync changes nothing, says why, exits 1, and keeps what the last good sync recorded', async (t) => {
      const server = await fileServer(t)
      const ws = await workspace(t, database)
      const url = server.url('/verra/projects.csv')
      server.routes.set('/verra/projects.csv', servedFile(readFileSync(VERRA_PROJECTS), { etag: '"v1"' }))
      assert.equal((await tonne(['sync', `verra=${url}`], ws.env)).code, 0)
      const [good] = await sources(ws)
      const before = await projectCount(ws)

      // Gone (404: not worth retrying), then a file that is not a Verra export.
      server.routes.delete('/verra/projects.csv')
      const gone = await tonne(['sync', `verra=${url}`], ws.env)
      assert.equal(gone.code, 1)
      assert.match(gone.stdout, /^verra \(.*\): FAILED, nothing was changed: 127\.0\.0\.1:\d+ answered 404 Not Found/)
      assert.match(gone.stderr, /1 of 1 sources failed/)
      let [failed] = await sources(ws)
      assert.equal(failed!.last_status, 'failed')
      assert.match(failed!.last_error!, /answered 404/)
      assert.deepEqual([failed!.sha256, failed!.etag, failed!.last_changed_at], [good!.sha256, good!.etag,
        good!.last_changed_at])

      server.routes.set('/verra/projects.csv', servedFile('Name,Comment\nnot,an export\n', { etag: '"bad"' }))
      const wrong = await tonne(['sync', `verra=${url}`], ws.env)
      assert.equal(wrong.code, 1)
      ;[failed] = await sources(ws)
      assert.equal(failed!.last_status, 'failed')
      assert.match(failed!.last_error!, /is not a verra export/)
      assert.equal(failed!.etag, '"v1"', 'the validators of the last import stay, so the next sync downloads again')
      assert.equal(await projectCount(ws), before)
    })

    test('a bare URL is OffsetsDB\'s archive; an archive that cannot be imported fails and changes nothing',
      async (t) => {
        const server = await fileServer(t)
        const ws = await workspace(t, database)
        server.routes.set('/latest/offsets-db.csv.zip', servedFile('not a zip archive'))
        const before = await projectCount(ws)
        const result = await tonne(['sync', server.url('/latest/offsets-db.csv.zip')], ws.env)
        assert.equal(result.code, 1)
        assert.match(result.stdout, /^offsetsdb \(.*\): FAILED, nothing was changed: /)
        const [source] = await sources(ws)
        assert.deepEqual([source!.name, source!.kind, source!.last_status, source!.sha256],
          ['offsetsdb', 'offsetsdb', 'failed', null])
        assert.match(source!.attribution!, /CarbonPlan \(2024\) "OffsetsDB".*CC BY 4\.0.*Terms of Data Access/)
        assert.equal(await projectCount(ws), before)
      })

    test('SYNC_SOURCES is the default list; bad sources are usage or configuration errors', async (t) => {
      const server = await fileServer(t)
      const ws = await workspace(t, database)
      server.routes.set('/p.csv', servedFile(readFileSync(VERRA_PROJECTS)))
      const configured = await tonne(['sync'], { ...ws.env, SYNC_SOURCES: ` verra=${server.url('/p.csv')} ` })
      assert.equal(configured.code, 0, configured.stderr)
      assert.match(configured.stdout, /^verra \(.*\): imported/)

      const none = await tonne(['sync'], ws.env)
      assert.equal(none.code, 2)
      assert.match(none.stderr, /sync needs KIND=URL arguments, or SYNC_SOURCES set/)
      const unknown = await tonne(['sync', 'nowhere=https://example.org/x.csv'], ws.env)
      assert.equal(unknown.code, 2)
      assert.match(unknown.stderr, /unknown source kind "nowhere"; known: offsetsdb, verra,/)
      const twice = await tonne(['sync'], { ...ws.env, SYNC_SOURCES: 'verra=http://a.test/1,verra=http://a.test/2' })
      assert.equal(twice.code, 2)
      assert.match(twice.stderr, /SYNC_SOURCES: "verra=http:\/\/a.test\/2": verra is given twice/)
      const file = await tonne(['sync', 'verra=file:///etc/passwd'], ws.env)
      assert.equal(file.code, 2)
      assert.match(file.stderr, /the URL must be an absolute http\(s\) URL/)
    })

    test('`tonne import --from` records its source: no URL, its status, and what the catalogue holds from it',
      async (t) => {
        const ws = await workspace(t, database)
        const result = await tonne(['import', '--from', 'verra', VERRA_PROJECTS], ws.env)
        assert.equal(result.code, 0, result.stderr)
        const [source] = await sources(ws)
        assert.deepEqual([source!.name, source!.kind, source!.url, source!.last_status, source!.sha256],
          ['verra', 'verra', null, 'changed', null])
        assert.equal(source!.last_changed_at, source!.last_checked_at)
        const again = await tonne(['import', '--from', 'verra', VERRA_PROJECTS], ws.env)
        assert.equal(again.code, 0, again.stderr)
        const [unchanged] = await sources(ws)
        assert.equal(unchanged!.last_status, 'unchanged')
        assert.equal(unchanged!.last_changed_at, source!.last_changed_at)
      })
  })
})
