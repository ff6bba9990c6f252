#!/usr/bin/env node
/**
 * Fetches the repository map's grammar `.wasm` files from the per-language npm packages pinned in
 * GRAMMARS below (and the tree-sitter runtime's wasm, from the web-tree-sitter version this package
 * bundles) and writes them brotli-compressed (`.wasm.br`) into `grammars/`, with each
 * package's license, recording the checksum of each published `.wasm` in `grammars/grammars.json`.
 * Only the grammars ship: the packages themselves carry native sources and install scripts that an
 * embedder should not get. Compressed, the six grammars take 0.4 MB instead of 5 MB of the install
 * (wasm compresses about 13 to 1; the engine decompresses one in milliseconds when a build needs it).
 *
 *   node packages/context/scripts/update-grammars.mjs           # fetch (npm pack) and write
 *   node packages/context/scripts/update-grammars.mjs --check   # verify grammars/ against grammars.json
 *   node packages/context/scripts/update-grammars.mjs --compress # compress `.wasm` files already in grammars/
 *
 * To update a grammar: change its version here, run the script, run the repo-map tests, commit.
 */
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib'

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
  // The tree-sitter runtime's own wasm: its JavaScript is bundled into this package's build (tsup
  // `noExternal`) from the dev dependency, so the wasm must come from that same version.
  { name: 'web-tree-sitter', version: runtimeVersion(), files: ['web-tree-sitter.wasm'] },
]

/** The exact web-tree-sitter version this package bundles (its dev dependency). */
function runtimeVersion() {
  const manifest = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8'))
  return manifest.devDependencies['web-tree-sitter']
}

const grammarsDir = join(import.meta.dirname, '..', 'grammars')
const manifestPath = join(grammarsDir, 'grammars.json')
const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex')
/** A file's bytes as published: a `.br` file decompressed. */
const published = (path) =>
  path.endsWith('.br') ? brotliDecompressSync(readFileSync(path)) : readFileSync(path)

/** Writes `wasm` (the published bytes) as `<target>.br`, brotli at its best, and returns that name. */
function writeCompressed(wasm, target) {
  const compressed = brotliCompressSync(wasm, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: wasm.length,
    },
  })
  writeFileSync(`${target}.br`, compressed)
  return `${target}.br`
}

if (process.argv.includes('--check')) {
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'))
  let bad = 0
  for (const { file, from, sha256: expected } of manifest.files) {
    const pinned = GRAMMARS.find((grammar) => from.startsWith(`${grammar.name}@`))
    if (pinned === undefined || from !== `${pinned.name}@${pinned.version}`) {
      console.error(
        `${file}: grammars.json says it is from ${from}; this script pins ${pinned?.name}@${pinned?.version}`,
      )
      bad += 1
    }
    const actual = sha256(published(join(grammarsDir, file)))
    if (actual !== expected) {
      console.error(`${file}: sha256 ${actual}, grammars.json says ${expected}`)
      bad += 1
    }
  }
  console.log(bad === 0 ? `${manifest.files.length} grammar files match grammars.json` : `${bad} mismatched`)
  process.exit(bad === 0 ? 0 : 1)
}

if (process.argv.includes('--compress')) {
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'))
  for (const entry of manifest.files) {
    const path = join(grammarsDir, entry.file)
    if (!entry.file.endsWith('.wasm') || !existsSync(path)) continue
    const wasm = readFileSync(path)
    if (sha256(wasm) !== entry.sha256) throw new Error(`${entry.file} does not match grammars.json`)
    writeCompressed(wasm, path)
    rmSync(path)
    entry.file = `${entry.file}.br`
  }
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`)
  console.log(`compressed the grammars in ${grammarsDir}`)
  process.exit(0)
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
      const bytes = readFileSync(join(unpacked, file))
      writeCompressed(bytes, join(grammarsDir, file))
      files.push({ file: `${file}.br`, from: `${name}@${version}`, sha256: sha256(bytes) })
    }
    const license = `${name}.LICENSE`
    copyFileSync(join(unpacked, 'LICENSE'), join(grammarsDir, license))
    files.push({
      file: license,
      from: `${name}@${version}`,
      sha256: sha256(readFileSync(join(grammarsDir, license))),
    })
  }
} finally {
  rmSync(work, { recursive: true, force: true })
}
writeFileSync(
  manifestPath,
  `${JSON.stringify({ generatedBy: 'scripts/update-grammars.mjs', files }, null, 2)}\n`,
)
console.log(`wrote ${files.length} files to ${grammarsDir}`)
