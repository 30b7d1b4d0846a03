import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { AppError } from '../http/errors.ts'
import { sdgColours } from '../catalogue/projects.repository.ts'
import type { Db } from '../store/database.ts'
import { drawSdgIcon } from './sdg-icons.ts'

export const SDG_ICON_PATH = '/media/sdg-icons'

/** Serves the SDG icons the catalogue links to. */
export const mediaRoutes: FastifyPluginAsyncTypebox<{ db: Db }> = async (app, { db }) => {
  app.get(`${SDG_ICON_PATH}/:file`, {
    schema: { hide: true, params: Type.Object({ file: Type.String({ maxLength: 20 }) }) }
  }, async (request, reply) => {
    const match = /^(\d{1,2})\.svg$/.exec(request.params.file)
    const goal = match === null ? undefined : (await sdgColours(db)).find((g) => g.number === Number(match[1]))
    if (goal === undefined) throw AppError.notFound(`No media at ${request.url}.`)
    return reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400')
      .send(drawSdgIcon(goal.number, goal.verbose_name, goal.colour))
  })
}
