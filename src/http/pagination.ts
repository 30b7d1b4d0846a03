/**
 * DRF limit/offset links: absolute URLs that keep the operation's known parameters (`query`, never anything
 * else the client sent) and set limit and offset. `previous` drops offset when it would be 0; `next` is null
 * past the last item.
 */
export function pageLinks (base: string, query: URLSearchParams, limit: number, offset: number, count: number): {
  next: string | null,
  previous: string | null
} {
  const link = (newOffset: number | null): string => {
    const params = new URLSearchParams(query)
    params.set('limit', String(limit))
    if (newOffset === null) params.delete('offset')
    else params.set('offset', String(newOffset))
    return `${base}?${params.toString()}`
  }
  const next = offset + limit < count ? link(offset + limit) : null
  let previous: string | null = null
  if (offset > 0) previous = offset - limit <= 0 ? link(null) : link(offset - limit)
  return { next, previous }
}
