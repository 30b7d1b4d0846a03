import assert from 'node:assert/strict'
import { test } from 'node:test'
import { MediaSigner } from '../../src/media/signing.ts'

test('a signed link is valid until 1 ms before its expiry and expired from that instant on', () => {
  const signer = new MediaSigner('a-test-secret-of-at-least-32-characters', 600)
  const signedAt = Date.parse('2026-03-01T10:00:00.250Z')
  const link = new URL(`http://x${signer.sign('sdg/13.svg', signedAt)}`)
  const expires = link.searchParams.get('expires')!
  const signature = link.searchParams.get('signature')!
  // The link names its expiry in whole seconds: 600 s after the second it was signed in.
  const expiresMs = Date.parse('2026-03-01T10:10:00.000Z')
  assert.equal(Number(expires) * 1000, expiresMs)
  const at = (nowMs: number) => signer.verify('sdg/13.svg', expires, signature, nowMs)
  assert.equal(at(signedAt), 'valid')
  assert.equal(at(expiresMs - 1), 'valid')
  assert.equal(at(expiresMs), 'expired')
  assert.equal(at(expiresMs + 1), 'expired')
  assert.equal(at(expiresMs + 59_999), 'expired')
})

test('a link may not expire later than the service\'s link lifetime from now: 1 s past it is invalid', () => {
  const signer = new MediaSigner('a-test-secret-of-at-least-32-characters', 3600)
  const nowMs = Date.parse('2026-03-01T10:00:00.000Z')
  // Signed (with the same secret) for a later time, so that it expires 3,600 s and 3,601 s from now.
  const at = (signedAtMs: number) => {
    const link = new URL(`http://x${signer.sign('sdg/13.svg', signedAtMs)}`)
    return signer.verify('sdg/13.svg', link.searchParams.get('expires')!, link.searchParams.get('signature')!, nowMs)
  }
  assert.equal(at(nowMs), 'valid')
  assert.equal(at(nowMs + 1000), 'invalid')
})
