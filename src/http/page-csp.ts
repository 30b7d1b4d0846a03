/**
 * The security policy of the service's own pages (the explorer at / and the docs at /docs): each runs only
 * its own scripts and styles and talks only to this service; images are this service's media links or data:
 * URLs. Nothing is upgraded to https: the service is often reached over plain HTTP on a LAN address
 * (HOST=0.0.0.0), where that would break the page.
 */
export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'"
].join('; ')
