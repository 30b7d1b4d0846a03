import path from 'node:path'
import fastifyStatic from '@fastify/static'
import type { FastifyPluginAsync } from 'fastify'

/** The explorer's own files: plain HTML, CSS and JavaScript modules, served as they are (no build step). */
export const EXPLORER_DIR = path.join(import.meta.dirname, 'public')
const EXPLORER_ASSETS_PREFIX = '/explorer/'

/**
 * The explorer runs only its own scripts and styles and talks only to this service; images are
 * this service's media links (or data: URLs). External project images are shown as links instead.
 */
const EXPLORER_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'"
].join('; ')

/** The web explorer at / and its assets under /explorer/, all hidden from the OpenAPI document. */
export const explorerRoutes: FastifyPluginAsync = async (app) => {
  // A child context, so the CSP hook covers the explorer's answers and nothing else.
  await app.register(async (explorer) => {
    explorer.addHook('onSend', async (_request, reply) => {
      reply.header('content-security-policy', EXPLORER_CSP)
    })
    await explorer.register(fastifyStatic, {
      root: EXPLORER_DIR,
      prefix: EXPLORER_ASSETS_PREFIX,
      index: false,
      schemaHide: true,
      // Not fingerprinted: browsers revalidate (ETag) instead of keeping a stale copy after an upgrade.
      cacheControl: true,
      maxAge: 0
    })
    explorer.get('/', { schema: { hide: true } }, async (_request, reply) => await reply.sendFile('index.html'))
  })
}
