#!/usr/bin/env node
/**
 * Fetches the repository map's grammar `.wasm` files into `grammars/` from the per-language npm
 * packages pinned in GRAMMARS below, with each package's license, and records their checksums in
 * `grammars/grammars.json`. Only the `.wasm` files ship: the packages themselves carry native
 * sources and install scripts that an embedder should not get.
 *
 *   node packages/context/scripts/update-grammars.mjs           # fetch (npm pack) and write
 *   node packages/context/scripts/update-grammars.mjs --check   # verify grammars/ against grammars.json
 *
 * To update a grammar: change its version here, run the script, run the repo-map tests, commit.
 */
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** Package, exact version, and the `.wasm` files at its root that the map uses. */
const GRAMMARS = [
  {
    name: 'tree-sitter-typescript',
    version: '0.23.2',
    files: ['tree-sitter-typescript.wasm', 'tree-sitter-tsx.wasm'],
  },
  { name: 'tree-sitter-javascript', version: '0.25.0', files: ['tree-sitter-javascript.wasm'] },
  { name: 'tree-sitter-python', version: '0.25.0', files: ['tree-sitter-python.wasm'] },
  { name: 'tree-sitter-go', version: '0.25.0', files: ['tree-sitter-go.wasm'] },
  { name: 'tree-sitter-rust', version: '0.24.0', files: ['tree-sitter-rust.wasm'] },
]

const grammarsDir = join(import.meta.dirname, '..', 'grammars')
const manifestPath = join(grammarsDir, 'grammars.json')
const sha256 = (path) => createHash('sha256').update(readFileSync(path)).digest('hex')

if (process.argv.includes('--check')) {
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'))
  let bad = 0
  for (const { file, sha256: expected } of manifest.files) {
    const actual = sha256(join(grammarsDir, file))
    if (actual !== expected) {
      console.error(`${file}: sha256 ${actual}, grammars.json says ${expected}`)
      bad += 1
    }
  }
  console.log(bad === 0 ? `${manifest.files.length} grammar files match grammars.json` : `${bad} mismatched`)
  process.exit(bad === 0 ? 0 : 1)
}

const work = mkdtempSync(join(tmpdir(), 'z-grammars-'))
const files = []
try {
  for (const { name, version, files: wasm } of GRAMMARS) {
    // npm pack checks the tarball against the registry's integrity hash.
    const tarball = execFileSync(
      'npm',
      ['pack', `${name}@${version}`, '--silent', '--pack-destination', work],
      {
        cwd: work,
        encoding: 'utf8',
      },
    ).trim()
    const unpacked = join(work, name)
    execFileSync('mkdir', ['-p', unpacked])
    execFileSync('tar', ['-xzf', join(work, tarball), '-C', unpacked, '--strip-components=1'])
    for (const file of wasm) {
      copyFileSync(join(unpacked, file), join(grammarsDir, file))
      files.push({ file, from: `${name}@${version}`, sha256: sha256(join(grammarsDir, file)) })
    }
    const license = `${name}.LICENSE`
    copyFileSync(join(unpacked, 'LICENSE'), join(grammarsDir, license))
    files.push({ file: license, from: `${name}@${version}`, sha256: sha256(join(grammarsDir, license)) })
  }
} finally {
  rmSync(work, { recursive: true, force: true })
}
writeFileSync(
  manifestPath,
  `${JSON.stringify({ generatedBy: 'scripts/update-grammars.mjs', files }, null, 2)}\n`,
)
console.log(`wrote ${files.length} files to ${grammarsDir}`)
