/**
 * Whether an If-None-Match header names this ETag: the weak comparison RFC 9110 13.1.2 asks for (W/ ignored on
 * either side), lists and `*` allowed.
 */
export function etagMatches (header: string | undefined, etag: string): boolean {
  if (header === undefined) return false
  const opaque = etag.startsWith('W/') ? etag.slice(2) : etag
  return header.split(',').some((candidate) => {
    const tag = candidate.trim()
    return tag === '*' || (tag.startsWith('W/') ? tag.slice(2) : tag) === opaque
  })
}
