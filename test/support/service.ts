import type { AddressInfo } from 'node:net'
import type { TestContext } from 'node:test'
import { buildTestApp, type TestApp, type TestAppOptions } from '../helpers.ts'

export interface RunningService extends TestApp {
  /** http://127.0.0.1:PORT, the real service listening on a free port. */
  baseUrl: string
  port: number
}

/** The real app (as buildTestApp builds it) listening on a free loopback port; closed after the test. */
export async function startService (t: TestContext, options: TestAppOptions = {}): Promise<RunningService> {
  const built = await buildTestApp(t, options)
  await built.app.listen({ host: '127.0.0.1', port: 0 })
  const { port } = built.app.server.address() as AddressInfo
  return { ...built, port, baseUrl: `http://127.0.0.1:${port}` }
}
