// @fastify/rate-limit's own counter stores (fixed windows in this process's memory, or in Redis through
// one Lua script). The package ships them without types; this is the part of their interface Tonne uses.

declare module '@fastify/rate-limit/store/LocalStore.js' {
  type Callback = (error: Error | null, state: { current: number, ttl: number } | null) => void
  export default class LocalStore {
    constructor (continueExceeding: boolean, exponentialBackoff: boolean, cache?: number)
    incr (key: string, callback: Callback, timeWindow: number, max: number): void
    read (key: string, callback: Callback, timeWindow: number, max: number): void
  }
}

declare module '@fastify/rate-limit/store/RedisStore.js' {
  import type { Redis } from 'ioredis'
  type Callback = (error: Error | null, state: { current: number, ttl: number } | null) => void
  export default class RedisStore {
    constructor (continueExceeding: boolean, exponentialBackoff: boolean, redis: Redis, key?: string)
    incr (key: string, callback: Callback, timeWindow: number, max: number): void
    read (key: string, callback: Callback, timeWindow: number, max: number): void
  }
}
