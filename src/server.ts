import cluster, { type Worker } from 'node:cluster'
import type { Server } from 'node:http'
import { createServer, type AddressInfo } from 'node:net'
import v8 from 'node:v8'
import type { FastifyInstance } from 'fastify'
import { buildApp } from './app.ts'
import { stopAccepting } from './http/graceful-stop.ts'
import { gatherWorkerMetrics } from './http/metrics.ts'
import { ConfigError, loadConfig, SHUTDOWN_GRACE_MS, STOP_ACCEPTING_WAIT_MS, type Config } from './config.ts'
import { describeSizing, givenV8Flags, type SizingReport } from './sizing.ts'
import { prepareDatabase, prepareParts } from './startup.ts'
import { BATCH_STATEMENT_TIMEOUT_MS, openStore } from './store/connect.ts'
import { RUNS_FROM } from './version.ts'

// Starting and stopping only: start-up work is startup.ts, the app itself app.ts.

/** Workers bind sockets of their own where the kernel spreads connections over them (SO_REUSEPORT). */
const WORKERS_OWN_SOCKETS = process.platform === 'linux'

/** The messages of a cluster's ordered stop (startCluster), each `{ type, signal? }`. */
const SERVING = 'tonne:serving' // worker -> primary: listening, and following these messages
const STOP_REQUESTED = 'tonne:stop-requested' // worker -> primary: a signal reached this worker
const STOP_ACCEPTING = 'tonne:stop-accepting' // primary -> worker: close your listening socket
const NOT_ACCEPTING = 'tonne:not-accepting' // worker -> primary: closed
const STOP = 'tonne:stop' // primary -> worker: finish your requests and exit
interface StopMessage { type?: unknown, signal?: unknown }

/** Builds the app over the configured database and listens; stops gracefully on SIGINT/SIGTERM. */
export async function startServer (config: Config,
  options: { prepare: boolean } = { prepare: true }): Promise<FastifyInstance> {
  const notes: string[] = []
  if (options.prepare) {
    // Batch work (migrations, the first catalogue) on a store of its own, with the batch statement timeout.
    const batch = await openStore(config, { statementTimeoutMs: BATCH_STATEMENT_TIMEOUT_MS })
    try {
      await prepareDatabase(config, batch, (line) => notes.push(line))
    } finally {
      await batch.close()
    }
  }
  const store = await openStore(config)
  // A read worker boots on its own thread while this one prepares and builds the app, so the first request
  // does not wait for it (docs/performance.md); tests' apps start theirs on first use.
  const warming = store.warm()
  // Awaited below; until then a failure must not count as an unhandled rejection.
  warming.catch(() => undefined)
  const app = await buildApp(await prepareParts(config, store))
  app.addHook('onClose', async () => await store.close())
  await warming
  for (const note of notes) app.log.info(note)
  const size = sizingReport(config)
  app.log.info({ memory: size }, describeSizing(size))
  app.log.info({ runsFrom: RUNS_FROM }, RUNS_FROM === 'bundle'
    ? 'running the bundle (dist/, made by npm ci)'
    : 'running the TypeScript sources')
  // A cluster worker on Linux binds a listening socket of its own (SO_REUSEPORT): closing it stops this
  // worker's accepting at once, with no primary queue in between whose connections would be reset.
  const ownSocket = cluster.isWorker && WORKERS_OWN_SOCKETS ? { exclusive: true, reusePort: true } : {}
  await app.listen({ host: config.host, port: config.port, ...ownSocket })
  // The bound port, not the configured one: PORT=0 picks a free port.
  const base = config.publicUrl ?? `http://${config.host}:${(app.server.address() as { port: number }).port}`
  app.log.info(`Explorer at ${base}/; API docs at ${base}/docs; database: ${store.location}`)
  // Schemas compile after listening (a faster start), and a broken one still stops the server at start.
  app.compileSchemas().catch(async (error: unknown) => {
    app.log.fatal({ err: error }, 'a route schema does not compile; stopping')
    process.exitCode = 1
    await app.close()
  })
  const stop = gracefulStop(async () => await app.close(),
    (message, error) => app.log[error === undefined ? 'info' : 'error']({ err: error }, message))
  if (cluster.isWorker) stopWithPrimary(app.server, stop)
  else onSignals(stop)
  return app
}

/** The memory limit, the choices made for it and the V8 heap limit in effect (src/sizing.ts), for the start's log. */
function sizingReport (config: Config): SizingReport {
  const { limit, sizing, explicit } = config.memory
  return {
    limitMb: limit === undefined ? undefined : Math.round(limit.bytes / 1024 / 1024),
    source: limit?.source,
    readWorkers: config.sqliteReadWorkers,
    answerCacheMb: Math.round(config.answerCacheBytes / 1024 / 1024),
    heapLimitMb: Math.round(v8.getHeapStatistics().heap_size_limit / 1024 / 1024),
    v8Flags: givenV8Flags(process.execArgv, config.memory.nodeOptions),
    readerOldSpaceMb: sizing.readerOldSpaceMb,
    readerYoungMb: sizing.readerYoungMb,
    mallocArenas: config.memory.mallocArenas,
    explicit
  }
}

/**
 * A cluster worker stops when its primary says (startCluster): first it only closes its listening socket,
 * later it finishes its requests. A signal that reaches the worker itself (Ctrl-C signals the process group,
 * systemd every process) is passed to the primary, which then stops every worker in that order.
 */
function stopWithPrimary (server: Server, stop: (signal: string) => void): void {
  onSignals((signal) => {
    if (process.connected) process.send?.({ type: STOP_REQUESTED, signal })
    else stop(signal)
  })
  process.on('message', (message: StopMessage) => {
    if (message.type === STOP_ACCEPTING) {
      stopAccepting(server)
      process.send?.({ type: NOT_ACCEPTING })
    } else if (message.type === STOP) {
      stop(String(message.signal))
    }
  })
  process.send?.({ type: SERVING })
}

/**
 * Runs `workers` server processes on one port (node:cluster). The primary prepares the database,
 * then forks; on SIGTERM or SIGINT, to it or to any worker, it stops them all in two steps: every
 * worker closes its listening socket, and only once all have does any finish its requests (whose
 * answers say `Connection: close`). A worker told to close while another still listens would send
 * its clients to reconnect there, into a queue that is reset when that socket closes in turn.
 * On Linux each worker listens on its own socket of the same port, so the primary never holds a
 * connection; elsewhere node:cluster's primary accepts and hands connections on.
 */
export async function startCluster (config: Config, workers: number): Promise<void> {
  const store = await openStore(config, { statementTimeoutMs: BATCH_STATEMENT_TIMEOUT_MS })
  try {
    await prepareDatabase(config, store, (line) => console.log(line))
  } finally {
    await store.close()
  }
  if (config.redisUrl === undefined) {
    console.warn(`Rate limits are counted per worker (${workers} workers): set REDIS_URL to share one count.`)
  }
  gatherWorkerMetrics()
  // PORT=0 means any free port: the workers must all bind the same one, so the primary picks it.
  const env = WORKERS_OWN_SOCKETS ? { PORT: String(config.port === 0 ? await freePort(config.host) : config.port) } : {}
  for (let i = 0; i < workers; i++) cluster.fork(env)
  const stop = orderedStop()
  cluster.on('message', (worker, message: StopMessage) => {
    if (message.type === SERVING) stop.serving(worker)
    else if (message.type === STOP_REQUESTED) stop.begin(String(message.signal))
    else if (message.type === NOT_ACCEPTING) stop.notAccepting(worker)
  })
  cluster.on('exit', (worker, code) => {
    if (stop.ended(worker, code)) return
    // A worker that dies on its own is replaced, so one crash does not shrink the service.
    console.error(`worker ${worker.process.pid} exited with code ${code}; starting another`)
    cluster.fork(env)
  })
  onSignals(stop.begin)
}

/**
 * The primary's side of a cluster's stop (startCluster). A worker gets the stop's messages once it says it
 * is serving: one still starting at the stop is waited for like the others, and told when it is ready.
 */
function orderedStop () {
  const serving = new Map<number, Worker>()
  let signal: string | undefined
  let failed = false
  const accepting = new Set<number>()
  let waiting: NodeJS.Timeout | undefined
  const tell = (worker: Worker, type: string) => { if (worker.isConnected()) worker.send({ type, signal }) }
  const finish = () => {
    if (signal === undefined || waiting === undefined) return
    clearTimeout(waiting)
    waiting = undefined
    for (const worker of serving.values()) tell(worker, STOP)
    // Each worker exits by itself within SHUTDOWN_GRACE_MS; one that does not is killed.
    setTimeout(() => {
      console.error('workers took too long to stop; killing them')
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGKILL')
      process.exit(1)
    }, SHUTDOWN_GRACE_MS + 1000).unref()
  }
  const closed = (id: number) => {
    accepting.delete(id)
    if (accepting.size === 0) finish()
  }
  return {
    serving: (worker: Worker) => {
      serving.set(worker.id, worker)
      if (signal === undefined) return
      tell(worker, STOP_ACCEPTING)
      if (waiting === undefined) tell(worker, STOP)
    },
    begin: (name: string) => {
      if (signal !== undefined) return
      signal = name
      console.log(`${name} received: stopping the workers`)
      for (const worker of Object.values(cluster.workers ?? {})) if (worker !== undefined) accepting.add(worker.id)
      for (const worker of serving.values()) tell(worker, STOP_ACCEPTING)
      // A worker that cannot close its socket in time (its event loop is stuck) does not hold the others.
      waiting = setTimeout(() => {
        console.error(`worker(s) still accepting after ${STOP_ACCEPTING_WAIT_MS} ms; stopping anyway`)
        finish()
      }, STOP_ACCEPTING_WAIT_MS)
      if (accepting.size === 0) finish()
    },
    notAccepting: (worker: Worker) => closed(worker.id),
    /** Whether the stop accounts for this exit (false: a worker died on its own while serving). */
    ended: (worker: Worker, code: number | null): boolean => {
      serving.delete(worker.id)
      if (signal === undefined) return false
      if (code !== 0) failed = true
      closed(worker.id)
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(failed ? 1 : 0)
      return true
    }
  }
}

async function freePort (host: string): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject)
    probe.listen({ host, port: 0 }, resolve)
  })
  const { port } = probe.address() as AddressInfo
  await new Promise((resolve) => probe.close(resolve))
  return port
}

/**
 * Gives a stop that runs once: logs, bounds the stop by SHUTDOWN_GRACE_MS, and exits 0 once `close` has
 * finished (it stops accepting, waits for in-flight requests, then closes the pools), 1 if it failed.
 */
function gracefulStop (close: () => Promise<void>,
  log: (message: string, error?: unknown) => void): (signal: string) => void {
  let closing = false
  return (signal) => {
    if (closing) return
    closing = true
    log(`${signal} received: finishing in-flight requests`)
    setTimeout(() => {
      log('shutdown took too long; exiting')
      process.exit(1)
    }, SHUTDOWN_GRACE_MS).unref()
    close().then(() => process.exit(0), (error: unknown) => {
      log('shutdown failed', error)
      process.exit(1)
    })
  }
}

function onSignals (handle: (signal: string) => void): void {
  process.once('SIGINT', () => handle('SIGINT'))
  process.once('SIGTERM', () => handle('SIGTERM'))
}

function exitOnStartupError (error: unknown): never {
  console.error(error instanceof ConfigError ? error.message : `Tonne could not start: ${(error as Error).message}`)
  process.exit(error instanceof ConfigError ? 2 : 1)
}

if (import.meta.main) {
  try {
    await startServer(loadConfig())
  } catch (error) {
    exitOnStartupError(error)
  }
}
