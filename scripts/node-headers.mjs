#!/usr/bin/env node
// Prints the folder to use as `npm_config_nodedir`: one whose `include/node` holds the C headers of
// the Node that runs this script. node-gyp (which compiles native modules such as better-sqlite3)
// otherwise downloads them from the web, which a machine that reaches only the package registries
// cannot do. Looked for, in order: next to the running binary (official builds, nvm, volta), the
// system's `/usr/include/node` (Debian's nodejs), and a copy kept from an earlier run. When none
// matches, the headers are taken from the npm registry's official build of the same version
// (`node-<platform>-<arch>`); when that fails too, the error names what is missing and how to get it.
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { cacheDir, fetchOfficialNode } from './official-node.mjs'

const version = process.versions.node

/** The version a headers folder declares (`include/node/node_version.h`), or undefined. */
function headersVersion(nodedir) {
  try {
    const text = readFileSync(join(nodedir, 'include', 'node', 'node_version.h'), 'utf8')
    const part = (name) => text.match(new RegExp(`#define NODE_${name}_VERSION (\\d+)`))?.[1]
    const [major, minor, patch] = [part('MAJOR'), part('MINOR'), part('PATCH')]
    return major && minor && patch ? `${major}.${minor}.${patch}` : undefined
  } catch {
    return undefined
  }
}

function localCandidates() {
  const prefix = resolve(dirname(process.execPath), '..')
  return [prefix, '/usr', '/usr/local', cacheDir('node-headers', version)]
}

const found = localCandidates().find((dir) => headersVersion(dir) === version)
if (found !== undefined) {
  console.log(found)
} else {
  try {
    console.log(fetchOfficialNode('node-headers', version, ['include']))
  } catch (error) {
    const looked = localCandidates()
      .map((dir) => join(dir, 'include', 'node'))
      .filter((dir, index, all) => all.indexOf(dir) === index)
    console.error(
      [
        `setup: Node ${version}'s C headers (include/node/node.h) are missing, and native modules`,
        "(better-sqlite3, the gateway's SQLite) cannot be compiled without them.",
        `Looked in: ${looked.join(', ')}${looked.some(existsSync) ? ' (present, but for another Node version)' : ''}.`,
        `Fetching them failed: ${error instanceof Error ? error.message : String(error)}.`,
        'Fix one of these ways, then run setup again:',
        "  - install your system's Node headers matching this Node (Debian/Ubuntu: the nodejs package's",
        '    /usr/include/node; for an official build they sit in its own include/node folder);',
        `  - or set npm_config_nodedir to a folder whose include/node holds Node ${version}'s headers.`,
      ].join('\n'),
    )
    process.exit(1)
  }
}
