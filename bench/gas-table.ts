// Gas of every public write of the tabswarm contracts, from `forge test --gas-report` over the Solidity
// tests (min / median / max per function, reverted calls included in the min), filtered to
// state-changing functions with the generated ABIs, plus each contract's deployment cost. Market
// proxies are called through their gateway, so their own rows are left out. Writes
// bench/results/gas.json and prints a table.
//   node --import ./src/polyfills/register.js bench/gas-table.ts
import { spawnSync } from 'node:child_process'
import { mkdir, writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import type { Abi } from 'viem'
import { collateralTokenAbi } from '../src/host/chain/generated/CollateralToken.ts'
import { delphiFactoryAbi } from '../src/host/chain/generated/DelphiFactory.ts'
import { dynamicParimutuelGatewayAbi } from '../src/host/chain/generated/DynamicParimutuelGateway.ts'
import { lmsrFactoryAbi } from '../src/host/chain/generated/LmsrFactory.ts'
import { lmsrGatewayAbi } from '../src/host/chain/generated/LmsrGateway.ts'
import { swarmCoordinatorAbi } from '../src/host/chain/generated/SwarmCoordinator.ts'

const CONTRACTS: Record<string, Abi> = {
  SwarmCoordinator: swarmCoordinatorAbi,
  CollateralToken: collateralTokenAbi,
  DynamicParimutuelGateway: dynamicParimutuelGatewayAbi,
  DelphiFactory: delphiFactoryAbi,
  LmsrGateway: lmsrGatewayAbi,
  LmsrFactory: lmsrFactoryAbi,
}

const resultsFile = fileURLToPath(new URL('./results/gas.json', import.meta.url))
const forge = fileURLToPath(new URL('../contracts/forge.mjs', import.meta.url))

interface GasRow {
  contract: string
  fn: string
  min: number
  median: number
  max: number
  calls: number
}

/** The report's tables: a `src/X.sol:X Contract` header, a deployment cost row, then function rows. */
function parseReport(text: string): { rows: GasRow[]; deployments: Record<string, number> } {
  const rows: GasRow[] = []
  const deployments: Record<string, number> = {}
  let contract: string | undefined
  let expectDeployment = false
  for (const line of text.split('\n')) {
    const cells = line.split('|').map((c) => c.trim())
    if (cells.length < 3) continue
    if (/ Contract$/.test(cells[1] ?? '')) {
      // test contracts have tables too: only src/ ones count
      contract = /^src\/\w+\.sol:(\w+) Contract$/.exec(cells[1] ?? '')?.[1]
      continue
    }
    if (!contract) continue
    if (cells[1] === 'Deployment Cost') {
      expectDeployment = true
      continue
    }
    if (expectDeployment && /^\d+$/.test(cells[1] ?? '')) {
      deployments[contract] = Number(cells[1])
      expectDeployment = false
      continue
    }
    const [, fn, min, , median, max, calls] = cells
    if (fn && /^\d+$/.test(min ?? '') && /^\d+$/.test(calls ?? ''))
      rows.push({
        contract,
        fn,
        min: Number(min),
        median: Number(median),
        max: Number(max),
        calls: Number(calls),
      })
  }
  return { rows, deployments }
}

function writesOf(abi: Abi): Set<string> {
  return new Set(
    abi.flatMap((item) =>
      item.type === 'function' && item.stateMutability !== 'view' && item.stateMutability !== 'pure'
        ? [item.name]
        : [],
    ),
  )
}

const run = spawnSync(process.execPath, [forge, 'test', '--gas-report'], {
  encoding: 'utf8',
  maxBuffer: 64 << 20,
})
if (run.status !== 0) {
  console.error(run.stdout, run.stderr)
  throw new Error(`forge test --gas-report failed (exit ${run.status})`)
}
const { rows, deployments } = parseReport(run.stdout)
const table = rows.filter((r) => CONTRACTS[r.contract] && writesOf(CONTRACTS[r.contract]!).has(r.fn))
const untested = Object.entries(CONTRACTS).flatMap(([contract, abi]) =>
  [...writesOf(abi)]
    .filter((fn) => !table.some((r) => r.contract === contract && r.fn === fn))
    .map((fn) => `${contract}.${fn}`),
)

await mkdir(new URL('./results/', import.meta.url), { recursive: true })
await writeFile(
  resultsFile,
  JSON.stringify(
    { date: new Date().toISOString(), deployments, writes: table, notMeasured: untested },
    null,
    2,
  ) + '\n',
)
const width = Math.max(...table.map((r) => `${r.contract}.${r.fn}`.length))
console.log(
  '\nGas of public writes (forge --gas-report over the Solidity tests; min includes reverted calls)',
)
console.log(
  `${'function'.padEnd(width)}  ${'min'.padStart(9)}  ${'median'.padStart(9)}  ${'max'.padStart(9)}  calls`,
)
for (const r of table)
  console.log(
    `${`${r.contract}.${r.fn}`.padEnd(width)}  ${String(r.min).padStart(9)}  ${String(r.median).padStart(9)}  ${String(r.max).padStart(9)}  ${r.calls}`,
  )
console.log(
  '\nDeployment cost:',
  Object.entries(deployments)
    .filter(([c, g]) => CONTRACTS[c] && g > 0)
    .map(([c, g]) => `${c} ${g}`)
    .join(', '),
)
if (untested.length > 0) console.log(`Not called by any test: ${untested.join(', ')}`)
