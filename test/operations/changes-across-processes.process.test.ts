import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import path from 'node:path'
import { test } from 'node:test'
import { tonne } from '../cli.helpers.ts'
import { createPostgresDatabase, REDIS_URL, TEST_DATABASES } from '../databases.ts'
import { fixtureProjects } from '../fixtures/projects.ts'
import { tempDir } from '../helpers.ts'
import { startServerProcess, type ServerProcess } from '../support/server-process.ts'

// Serving processes keep verified keys and the catalogue version in memory, with no expiry: only the change
// feed tells them. These tests check that a revocation or an import made anywhere reaches every process. The feed
// takes well under a second; the deadline only ends a test whose feed is broken, and is generous so that a busy
// machine slows the test without failing it (how fast it is belongs to `npm run bench`, not to a test).

const servers = { skip: TEST_DATABASES.includes('postgres') ? false : 'TONNE_TEST_DATABASES leaves PostgreSQL out' }
const DEADLINE_MS = 30_000

interface Answer { status: number, etag: string | undefined, body: string }

/** One GET on a connection of its own, so that with workers each request may reach another process. */
async function get (base: string, url: string, key: string): Promise<Answer> {
  return await new Promise((resolve, reject) => {
    const request = httpRequest(`${base}${url}`, { agent: false, headers: { authorization: `Bearer ${key}` } },
      (response) => {
        let body = ''
        response.setEncoding('utf8').on('data', (chunk: string) => { body += chunk })
        response.on('end', () => resolve({
          status: response.statusCode ?? 0, etag: response.headers.etag, body
        }))
      })
    request.on('error', reject).end()
  })
}

// With workers on Linux the kernel picks a worker by a hash of each new connection's addresses (SO_REUSEPORT),
// not in turn: sixteen answers in a row all from one of two workers has odds of 1 in 65,536.
const STREAK = 16

/**
 * Asks until `done` holds for STREAK answers in a row (with workers, each process answers some of them);
 * fails if that has not happened by the deadline.
 */
async function reachesAll (since: number, ask: () => Promise<Answer>, done: (a: Answer) => boolean): Promise<void> {
  for (let streak = 0; streak < STREAK;) {
    const answer = await ask()
    streak = done(answer) ? streak + 1 : 0
    const late = Date.now() - since
    if (streak === 0) assert.ok(late <= DEADLINE_MS, `still ${answer.status} ${late} ms after the change`)
  }
}

function writeCatalogue (t: Parameters<typeof tempDir>[0]): string {
  const file = path.join(tempDir(t), 'catalogue.json')
  writeFileSync(file, JSON.stringify(fixtureProjects()))
  return file
}

async function revocationAndImportReachEveryone (
  t: Parameters<typeof tempDir>[0], env: Record<string, string>, bases: string[]
): Promise<void> {
  const created = await tonne(['keys', 'create', '--name', 'watched', '--json'], env)
  assert.equal(created.code, 0, created.stderr)
  const { key, id } = JSON.parse(created.stdout) as { key: string, id: string }
  const list = '/api/v1/commerce/products/'
  // Every process has verified the key and answered the list (so both are held in memory).
  const before = new Map<string, Answer>()
  for (let i = 0; i < 6; i++) {
    const base = bases[i % bases.length]!
    const answer = await get(base, list, key)
    assert.equal(answer.status, 200)
    assert.equal((JSON.parse(answer.body) as { count: number }).count, 0)
    before.set(base, answer)
  }

  const imported = await tonne(['import', writeCatalogue(t)], env)
  assert.equal(imported.code, 0, imported.stderr)
  const importedAt = Date.now()
  for (const base of bases) {
    await reachesAll(importedAt, async () => await get(base, list, key),
      (a) => a.status === 200 && (JSON.parse(a.body) as { count: number }).count === 12)
    const after = await get(base, list, key)
    assert.notEqual(after.etag, before.get(base)!.etag, 'a new catalogue, a new ETag')
  }

  const revoked = await tonne(['keys', 'revoke', id], env)
  assert.equal(revoked.code, 0, revoked.stderr)
  const revokedAt = Date.now()
  for (const base of bases) {
    // Refused: 401, or 429 once this address has been refused too often.
    await reachesAll(revokedAt, async () => await get(base, `${list}1/`, key), (a) => [401, 429].includes(a.status))
  }
}

test('two instances over one PostgreSQL and Redis: a CLI revocation and import reach the other',
  servers, async (t) => {
    const shared = {
      DATABASE_URL: await createPostgresDatabase(t),
      REDIS_URL,
      LOAD_BUNDLED_CATALOGUE: 'false',
      CREATE_INITIAL_API_KEY: 'false'
    }
    const migrated = await tonne(['migrate'], { ...shared, DATA_DIR: tempDir(t) })
    assert.equal(migrated.code, 0, migrated.stderr)
    const a: ServerProcess = await startServerProcess(t, { ...shared, DATA_DIR: tempDir(t) })
    const b: ServerProcess = await startServerProcess(t, { ...shared, DATA_DIR: tempDir(t) })
    await revocationAndImportReachEveryone(t, { ...shared, DATA_DIR: tempDir(t) }, [a.url, b.url])
    assert.equal(await a.stop(), 0)
    assert.equal(await b.stop(), 0)
  })

test('serve --workers 2 on SQLite: a CLI revocation and import reach both workers', async (t) => {
  const env = { DATA_DIR: tempDir(t), LOAD_BUNDLED_CATALOGUE: 'false', CREATE_INITIAL_API_KEY: 'false' }
  const server = await startServerProcess(t, env, ['--workers', '2'])
  await server.line(/Server listening at/)
  // Both workers listen before the test begins (the second line may come after the first).
  await new Promise<void>((resolve) => {
    const check = () => server.output.filter((l) => /Server listening at/.test(l)).length >= 2
    if (check()) return resolve()
    server.child.stdout!.on('data', () => { if (check()) resolve() })
  })
  await revocationAndImportReachEveryone(t, env, [server.url])
  assert.equal(await server.stop(), 0)
})
