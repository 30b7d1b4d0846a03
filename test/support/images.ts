import { crc32, deflateSync } from 'node:zlib'

// Small real image files for the import and media tests, built here byte by byte from the formats'
// specifications (PNG: RFC 2083; GIF89a; RIFF/WebP; JPEG/JFIF), so no binary fixture is committed.

function pngChunk (type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([length, body, crc])
}

/** A valid PNG of `width` x `height` pixels of one RGB colour (a browser decodes it). */
export function png (width = 1, height = 1, rgb: [number, number, number] = [0, 128, 0]): Buffer {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header.set([8, 2, 0, 0, 0], 8) // 8-bit depth, truecolour, deflate, adaptive filter, no interlace
  const row = Buffer.from([0, ...Array.from({ length: width }, () => rgb).flat()])
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)))
  return Buffer.concat([
    Buffer.from('89504e470d0a1a0a', 'hex'),
    pngChunk('IHDR', header),
    pngChunk('IDAT', pixels),
    pngChunk('IEND', Buffer.alloc(0))
  ])
}

/** A 1x1 GIF89a. */
export const GIF = Buffer.from('47494638396101000100800000000000ffffff21f90401000000002c000000000100010000' +
  '02024401003b', 'hex')

/** The start of a JFIF JPEG: SOI, then an APP0 segment (what the magic-byte check reads). */
export const JPEG = Buffer.from('ffd8ffe000104a46494600010100000100010000ffd9', 'hex')

/** A RIFF container holding a WebP (lossless) chunk header. */
export const WEBP = Buffer.concat([Buffer.from('RIFF', 'latin1'), Buffer.from([26, 0, 0, 0]),
  Buffer.from('WEBPVP8L', 'latin1'),
  Buffer.from('0d0000002f0000001007100211088888fe07', 'hex')])

/** A plain, safe SVG. */
export const SAFE_SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" width="10" height="10">' +
  '<title>Green square</title><rect width="10" height="10" fill="#008000"/></svg>'
