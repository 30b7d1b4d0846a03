import assert from 'node:assert/strict'
import { test } from 'node:test'
import { checkedImage, ImageContentError, MAX_IMAGE_BYTES } from '../../src/media/image-content.ts'
import { GIF, JPEG, png, WEBP } from '../support/images.ts'

// An imported image's bytes must be the image its name promises (src/media/image-content.ts): a file named .jpg
// that is HTML, or another kind of image, is refused, so it is never served under an image type.
const HTML = Buffer.from('<!doctype html><script>alert(1)</script>')
const RASTERS: Array<[string, Buffer]> = [['.png', png()], ['.jpg', JPEG], ['.gif', GIF], ['.webp', WEBP]]

test('each raster type takes its own bytes, as they are, and refuses the others\' and HTML', () => {
  for (const [extension, bytes] of RASTERS) {
    assert.equal(checkedImage(extension, bytes), bytes, extension)
    assert.equal(checkedImage(extension.toUpperCase(), bytes), bytes, `${extension} in capitals`)
    for (const [other, wrong] of [...RASTERS.filter(([e]) => e !== extension), ['.html', HTML] as const]) {
      const refused = (error: Error) =>
        error instanceof ImageContentError && /its bytes do not start as one does/.test(error.message)
      assert.throws(() => checkedImage(extension, wrong), refused, `${other}'s bytes named ${extension}`)
    }
  }
  assert.equal(checkedImage('.jpeg', JPEG), JPEG, '.jpeg is a JPEG')
  assert.throws(() => checkedImage('.jpeg', png()), /is not a JPEG image/)
  // RIFF holds sound and video too: a WAVE file named .webp is not a WebP.
  const wave = Buffer.concat([Buffer.from('RIFF', 'latin1'), Buffer.from([26, 0, 0, 0]), Buffer.from('WAVEfmt ')])
  assert.throws(() => checkedImage('.webp', wave), /is not a WebP image/)
  // The JPEG signature is three bytes: two of them are not one.
  assert.throws(() => checkedImage('.jpg', JPEG.subarray(0, 2)), /is not a JPEG image/)
})

test('an unsupported type is refused; the size limit takes exactly its bytes', () => {
  assert.throws(() => checkedImage('.bmp', Buffer.from('BM')), /has an unsupported type/)
  const atLimit = Buffer.concat([JPEG, Buffer.alloc(MAX_IMAGE_BYTES - JPEG.length)])
  assert.equal(checkedImage('.jpg', atLimit).length, MAX_IMAGE_BYTES)
  assert.throws(() => checkedImage('.jpg', Buffer.concat([atLimit, Buffer.alloc(1)])), /is larger than 20 MiB/)
})

test('an AVIF is an ISO BMFF ftyp box whose major or compatible brands say avif or avis; HEIC is not', () => {
  // size (4 bytes), "ftyp", major brand, minor version (4 bytes), compatible brands: ISO/IEC 14496-12, 4.3.
  const ftyp = (major: string, ...compatible: string[]) => {
    const brands = Buffer.from([major, '\0\0\0\0', ...compatible].join(''), 'latin1')
    const size = Buffer.alloc(4)
    size.writeUInt32BE(8 + brands.length)
    return Buffer.concat([size, Buffer.from('ftyp', 'latin1'), brands, Buffer.alloc(16)])
  }
  for (const bytes of [ftyp('avif', 'mif1'), ftyp('avis', 'msf1'), ftyp('mif1', 'miaf', 'avif')]) {
    assert.equal(checkedImage('.avif', bytes), bytes)
  }
  // HEIC shares the box and the mif1 brand; "avif" after the box's end is not one of its brands.
  assert.throws(() => checkedImage('.avif', ftyp('heic', 'mif1')), /is not an AVIF image/)
  const outside = Buffer.concat([ftyp('heic', 'mif1').subarray(0, 20), Buffer.from('avif', 'latin1')])
  assert.throws(() => checkedImage('.avif', outside), /is not an AVIF image/)
})
