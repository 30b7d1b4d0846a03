import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { REPO_ROOT } from '../helpers.ts'

const MIGRATIONS = path.join(REPO_ROOT, 'src', 'store', 'migrations')

test('migrations are frozen: they import only Kysely and their own data copies, and read no files', () => {
  const files = readdirSync(MIGRATIONS, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'))
  assert.ok(files.length >= 4)
  for (const file of files) {
    const text = readFileSync(path.join(MIGRATIONS, file), 'utf8')
    for (const [, specifier] of text.matchAll(/^import .* from '([^']+)'/gm)) {
      const target = path.resolve(path.dirname(path.join(MIGRATIONS, file)), specifier!)
      const inside = specifier!.startsWith('.') && target.startsWith(MIGRATIONS)
      assert.ok(specifier === 'kysely' || inside, `${file} imports ${specifier}: a migration must not use live code`)
    }
    assert.doesNotMatch(text, /readFileSync|node:fs|import\.meta/, `${file} reads files when it runs`)
  }
})
