#!/usr/bin/env node
// A `solc` executable for forge, backed by solc-js (npm `solc`), so forge never downloads a compiler.
// It answers what forge asks of a native solc: `--version` and `--standard-json` (input on stdin).
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { resolve } from 'node:path'
import process from 'node:process'

const require = createRequire(import.meta.url)
const solc = require('solc')

const args = process.argv.slice(2)

if (args.includes('--version')) {
  // Native format, e.g. "Version: 0.8.37+commit.f401782d.Linux.g++"; forge parses the semver.
  const version = String(solc.version()).replace('.Emscripten.clang', '.Linux.g++')
  process.stdout.write(`solc, the solidity compiler commandline interface\nVersion: ${version}\n`)
} else if (args.includes('--standard-json')) {
  // Read stdin as a stream: readFileSync(0) throws EAGAIN when forge has not finished writing a large
  // input into the pipe yet.
  let input = ''
  process.stdin.setEncoding('utf8')
  for await (const chunk of process.stdin) input += chunk
  const basePathIndex = args.indexOf('--base-path')
  const basePath = basePathIndex >= 0 ? (args[basePathIndex + 1] ?? '.') : '.'
  const findImports = (path) => {
    try {
      return { contents: readFileSync(resolve(basePath, path), 'utf8') }
    } catch {
      return { error: `File not found: ${path}` }
    }
  }
  process.stdout.write(solc.compile(input, { import: findImports }))
} else {
  process.stderr.write(`solc-shim: unsupported arguments: ${args.join(' ')}\n`)
  process.exit(1)
}
