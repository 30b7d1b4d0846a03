/**
 * DRF limit/offset links: absolute URLs that keep every other query parameter and set limit
 * and offset. `previous` drops offset when it would be 0; `next` is null past the last item.
 */
export function pageLinks (requestUrl: URL, limit: number, offset: number, count: number): {
  next: string | null,
  previous: string | null
} {
  const link = (newOffset: number | null): string => {
    const url = new URL(requestUrl)
    url.searchParams.set('limit', String(limit))
    if (newOffset === null) url.searchParams.delete('offset')
    else url.searchParams.set('offset', String(newOffset))
    return url.toString()
  }
  const next = offset + limit < count ? link(offset + limit) : null
  let previous: string | null = null
  if (offset > 0) previous = offset - limit <= 0 ? link(null) : link(offset - limit)
  return { next, previous }
}
