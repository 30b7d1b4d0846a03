import { setImmediate } from 'node:timers/promises'
import type {
  KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow
} from 'kysely'

/**
 * Gives the event loop a turn once a stretch of queries has kept it busy for `sliceMs`: node:sqlite runs each
 * statement synchronously, so a long import would otherwise hold every request of its process until it commits.
 * Used on the handle a scheduled sync imports through (db.withPlugin), so serving goes on while it writes.
 */
export class YieldPlugin implements KyselyPlugin {
  readonly #sliceMs: number
  #since = performance.now()

  constructor (sliceMs: number) {
    this.#sliceMs = sliceMs
  }

  transformQuery (args: PluginTransformQueryArgs): RootOperationNode {
    return args.node
  }

  async transformResult (args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (performance.now() - this.#since >= this.#sliceMs) {
      await setImmediate()
      this.#since = performance.now()
    }
    return args.result
  }
}
