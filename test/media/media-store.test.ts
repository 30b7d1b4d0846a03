import assert from 'node:assert/strict'
import { existsSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { MediaStore } from '../../src/media/media-store.ts'
import { tempDir } from '../helpers.ts'

// The media store's last guard (src/media/media-store.ts): a key is a relative path of lower-case letters, digits
// and dashes with an image extension, 200 characters at most. Anything else reads as missing and is never written,
// whatever a route or an import let through.
test('a key that is not a media key reads as missing and is never written: no way out of the folder', async (t) => {
  const root = tempDir(t)
  const store = new MediaStore(path.join(root, 'media'))
  writeFileSync(path.join(root, 'secret.png'), 'outside')
  const refused = ['../secret.png', 'images/../../secret.png', '/etc/passwd.png', 'images/Upper.png',
    'images/a.txt', 'images/a', 'images//a.png', 'images/a b.png', `images/${'a'.repeat(190)}.png`]
  for (const key of refused) {
    assert.equal(await store.read(key), undefined, key)
    assert.equal(store.has(key), false, key)
    assert.throws(() => { store.put(key, 'x') }, /not a media key/, key)
    assert.throws(() => { store.remove(key) }, /not a media key/, key)
  }
  assert.ok(existsSync(path.join(root, 'secret.png')), 'nothing outside the folder was removed')
  // 200 characters exactly is a key.
  const longest = `images/${'a'.repeat(189)}.png`
  assert.equal(longest.length, 200)
  store.put(longest, 'png bytes')
  assert.deepEqual(await store.read(longest), { content: Buffer.from('png bytes'), contentType: 'image/png' })
  assert.deepEqual(store.keysIn('images'), [longest])
})

test('a new file says it was created, the same bytes again say not (so a failed import removes only its own)',
  async (t) => {
    const store = new MediaStore(path.join(tempDir(t), 'media'))
    const first = store.putNewContent(Buffer.from('png bytes'), '.PNG')
    assert.equal(first.created, true)
    assert.match(first.key, /^images\/[0-9a-f]{32}\.png$/)
    assert.deepEqual(store.putNewContent(Buffer.from('png bytes'), '.png'), { key: first.key, created: false })
    // A folder never written has no keys; removing a key that is not there is no error.
    assert.deepEqual(store.keysIn('logos'), [])
    store.remove('images/0123456789abcdef0123456789abcdef.png')
    assert.deepEqual(store.keysIn('images'), [first.key])
  })
