import type { CallOptions, QueryValue, Transport } from './transport.ts'

// The calculator's methods differ only in their endpoint and whether they take a query: calculator.ts (generated)
// declares each with its types and lists the endpoints, and this makes the methods from that list.

/** Each method's endpoint, and whether it takes a query (whether the endpoint has query parameters). */
export type Endpoints<Api> = Record<keyof Api, readonly [string, boolean]>

/**
 * The class of a calculator whose every method GETs `path` + its endpoint with its query: one method per row of
 * `endpoints`, on the prototype as a written method would be.
 */
export function calculatorClass<Api> (path: string, endpoints: Endpoints<Api>): new (transport: Transport) => Api {
  class CalculatorApi {
    readonly #transport: Transport
    constructor (transport: Transport) { this.#transport = transport }

    static {
      for (const [method, [endpoint, takesQuery]] of Object.entries<readonly [string, boolean]>(endpoints)) {
        const get = async (calculator: CalculatorApi, query: object, options: CallOptions | undefined) =>
          await calculator.#transport.get(`${path}${endpoint}`, query as Readonly<Record<string, QueryValue>>, options)
        const call = takesQuery
          ? async function (this: CalculatorApi, query: object = {}, options?: CallOptions) {
            return await get(this, query, options)
          }
          : async function (this: CalculatorApi, options?: CallOptions) { return await get(this, {}, options) }
        Object.defineProperty(CalculatorApi.prototype, method, { value: call, writable: true, configurable: true })
      }
    }
  }
  return CalculatorApi as unknown as new (transport: Transport) => Api
}
