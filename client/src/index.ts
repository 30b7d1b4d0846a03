export { CalculatorApi } from './calculator.ts'
export { ProjectsApi, TonneClient, TransactionsApi, type TonneClientOptions } from './client.ts'
export {
  isKnownErrorCode, KNOWN_ERROR_CODES, TonneApiError, TonneError, TonneNetworkError, type ErrorCode, type KnownErrorCode
} from './errors.ts'
export { backoffDelay, parseRetryAfter, RETRYABLE_STATUSES, type RetryOptions, type RetryPolicy } from './retry.ts'
export type { CallOptions, TransportOptions } from './transport.ts'
export type * from './types.ts'
export type { components, paths } from './openapi.ts'
export { VERSION } from './version.ts'
