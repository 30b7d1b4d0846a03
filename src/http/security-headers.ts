import fp from 'fastify-plugin'

/**
 * The security headers of every answer, as helmet's defaults set them (without its CSP: JSON answers run
 * nothing; the pages set their own). One block, written once: helmet's chain of eleven middlewares cost
 * about 8% of a cached answer's CPU (docs/performance.md).
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'SAMEORIGIN',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0'
})

/**
 * Sets the block on every reply before routing, so routes (media, pages) may still override a header. JSON answers
 * execute nothing, so a CSP adds nothing there; /docs sets its own, media too.
 */
export const securityHeaders = fp(async (app) => {
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(SECURITY_HEADERS)
    done()
  })
}, { name: 'security-headers' })
