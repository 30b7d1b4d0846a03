import path from 'node:path'
import fastifyStatic from '@fastify/static'
import type { FastifyPluginAsync } from 'fastify'
import { PAGE_CSP } from '../http/page-csp.ts'

/** The explorer's own files: plain HTML, CSS and JavaScript modules, served as they are (no build step). */
export const EXPLORER_DIR = path.join(import.meta.dirname, 'public')
const EXPLORER_ASSETS_PREFIX = '/explorer/'

/** The web explorer at / and its assets under /explorer/, all hidden from the OpenAPI document. */
export const explorerRoutes: FastifyPluginAsync = async (app) => {
  // A child context, so the CSP hook covers the explorer's answers and nothing else.
  await app.register(async (explorer) => {
    explorer.addHook('onSend', async (_request, reply) => {
      reply.header('content-security-policy', PAGE_CSP)
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
