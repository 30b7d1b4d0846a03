// Which code `tonne` runs: the bundle in dist/ when it is fresh, else the TypeScript sources (bin/tonne.js).
import { readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

/**
 * The bundle's file URL (scripts/build-bundle.ts: dist/, made by `npm ci`; `given`, TONNE_BUNDLE_DIR, names another
 * folder, for its test) when it is newer than every project file it was built from and than package.json and its lock;
 * otherwise undefined, and the TypeScript sources run (development, tests, a checkout without `npm ci`).
 * TONNE_BUNDLE_DIR=off always runs the sources. Stating its ~160 inputs takes a few milliseconds.
 */
export function freshBundle (given) {
  const root = path.join(import.meta.dirname, '..')
  if (given === 'off') return undefined
  const dir = given === undefined || given === '' ? path.join(root, 'dist') : path.resolve(given)
  try {
    const built = statSync(path.join(dir, 'tonne.js')).mtimeMs
    const inputs = JSON.parse(readFileSync(path.join(dir, 'inputs.json'), 'utf8'))
    // (npm install runs prepare, which rebuilds it after the packages change.)
    const newer = [...inputs, 'package.json', 'package-lock.json']
      .find((file) => statSync(path.join(root, file), { throwIfNoEntry: false })?.mtimeMs > built)
    return newer === undefined ? pathToFileURL(path.join(dir, 'tonne.js')).href : undefined
  } catch {
    return undefined
  }
}
