import { sanitiseSvg, UnsafeSvgError } from './svg-sanitiser.ts'

/** Larger image files are refused at import: a catalogue image is a photo or a logo, not an archive. */
export const MAX_IMAGE_BYTES = 20 * 1024 * 1024

/** A file whose bytes are not the image its name promises, or an SVG that cannot be made safe. */
export class ImageContentError extends Error {
  constructor (message: string) {
    super(message)
    this.name = 'ImageContentError'
  }
}

const startsWith = (bytes: Buffer, ascii: string, at = 0) =>
  bytes.length >= at + ascii.length && bytes.toString('latin1', at, at + ascii.length) === ascii

/** ISO BMFF (AVIF): an `ftyp` box whose major or compatible brands include avif or avis. */
function isAvif (bytes: Buffer): boolean {
  if (!startsWith(bytes, 'ftyp', 4)) return false
  const end = Math.min(bytes.readUInt32BE(0), bytes.length)
  for (let at = 8; at + 4 <= end; at += at === 8 ? 8 : 4) {
    const brand = bytes.toString('latin1', at, at + 4)
    if (brand === 'avif' || brand === 'avis') return true
  }
  return false
}

// The signatures every decoder checks first (PNG: RFC 2083; JPEG: SOI + a marker; GIF87a/89a; RIFF WebP).
const RASTER: Readonly<Record<string, { name: string, matches: (bytes: Buffer) => boolean }>> = {
  '.png': { name: 'a PNG', matches: (b) => startsWith(b, '\x89PNG\r\n\x1a\n') },
  '.jpg': { name: 'a JPEG', matches: (b) => b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  '.gif': { name: 'a GIF', matches: (b) => startsWith(b, 'GIF87a') || startsWith(b, 'GIF89a') },
  '.webp': { name: 'a WebP', matches: (b) => startsWith(b, 'RIFF') && startsWith(b, 'WEBP', 8) },
  '.avif': { name: 'an AVIF', matches: isAvif }
}

/**
 * The bytes to store for an image file named with `extension`: raster files as they are once their
 * signature matches the name, SVG files sanitised. Anything else throws an ImageContentError.
 */
export function checkedImage (extension: string, bytes: Buffer): Buffer {
  const kind = extension.toLowerCase() === '.jpeg' ? '.jpg' : extension.toLowerCase()
  if (bytes.length > MAX_IMAGE_BYTES) throw new ImageContentError(`is larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MiB`)
  if (kind === '.svg') {
    let text: string
    try {
      text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes)
    } catch {
      throw new ImageContentError('is not an SVG image (not UTF-8 text)')
    }
    try {
      return Buffer.from(sanitiseSvg(text), 'utf8')
    } catch (error) {
      if (error instanceof UnsafeSvgError) throw new ImageContentError(error.message)
      throw error
    }
  }
  const raster = RASTER[kind]
  if (raster === undefined) throw new ImageContentError('has an unsupported type')
  if (!raster.matches(bytes)) {
    throw new ImageContentError(`is not ${raster.name} image (its bytes do not start as one does)`)
  }
  return bytes
}
