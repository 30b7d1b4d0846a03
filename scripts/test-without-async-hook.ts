// Preloaded (`--import`, with `--expose-internals`) by scripts/test.ts into the processes that share test files
// (`--test-isolation=none`). Node's test runner enables an async hook with init and destroy callbacks in such a
// process, only so that an uncaught error can be pinned on the test whose async work raised it. Every promise then
// takes a hook call and a weak handle for its destroy callback: about a tenth of the fast set's CPU
// (docs/test-suite.md, "The test runner's async hook"). Without it an uncaught error still fails the run: the
// runner reports it as a diagnostic of the file's run ("A resource generated asynchronous activity after the test
// ended…"), without the test's name (test/test-runner-hook.process.test.ts).
import { createRequire } from 'node:module'

interface Hook { disable: () => void, [key: symbol]: unknown }

const require = createRequire(import.meta.url)
const internal = require('internal/async_hooks') as { getHookArrays: () => [Hook[]] }
const [hooks] = internal.getHookArrays()
const found = hooks.filter((hook) => {
  const init = Object.getOwnPropertySymbols(hook).find((symbol) => symbol.description === 'init')
  // The runner's hook is the one that maps async resources to tests (lib/internal/test_runner/harness.js).
  return init !== undefined && String(hook[init]).includes('testResources')
})
// A Node whose runner works otherwise: leave it as it is, only slower.
for (const hook of found) hook.disable()
