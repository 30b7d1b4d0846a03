/** Whether an If-None-Match header names this ETag (weak comparison, lists and `*` allowed). */
export function etagMatches (header: string | undefined, etag: string): boolean {
  if (header === undefined) return false
  const opaque = etag.slice(2)
  return header.split(',').some((candidate) => {
    const tag = candidate.trim()
    return tag === '*' || tag === etag || tag === opaque || tag === `W/${opaque}`
  })
}
