// Sign-to-receipt latency of the app's chain writes on the local chain (anvil, automine), against a plain
// ETH transfer measured in the same run as the baseline: registration (Ed25519 proof + registerPeer),
// reward submission, the collateral faucet, a DPM market buy (quote + buyExactOut with 2 % slippage).
// Each sample signs locally (like the burner wallet), sends,
// and polls for the receipt every POLL_MS. Writes bench/results/chain-latency.json and prints a table.
//   node --import ./src/polyfills/register.js bench/chain-latency.ts
import { mkdir, writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { generateKeyPair } from '@libp2p/crypto/keys'
import { createWalletClient, http, keccak256, maxUint256, parseEther, toHex } from 'viem'
import type { Hash } from 'viem'
import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts'
import { startAnvil } from '../src/node/cli/anvil.ts'
import { deployLocalChain } from '../src/host/chain/deploy-local-chain.ts'
import { collateralTokenAbi } from '../src/host/chain/generated/CollateralToken.ts'
import { dynamicParimutuelGatewayAbi } from '../src/host/chain/generated/DynamicParimutuelGateway.ts'
import { swarmCoordinatorAbi } from '../src/host/chain/generated/SwarmCoordinator.ts'
import { maxTokensInWithSlippage } from '../src/core/markets/dpm/dpm.ts'
import { localChain, localClients } from '../src/host/chain/local-clients.ts'
import { signRegistration } from '../src/host/rewards/registration-message.ts'
import { fmt, percentile, printTable } from './stats.ts'
import type { Row } from './stats.ts'

/** Free of the test ports (19xxx) and the dev defaults. */
const ANVIL_PORT = 18210
const SAMPLES = 40
/** Receipt polling; the app polls the local chain at LOCAL_POLL_MS or faster. */
const POLL_MS = 50
const ROUND_LENGTH = 3_600

const resultsFile = fileURLToPath(new URL('./results/chain-latency.json', import.meta.url))

interface Series {
  ms: number[]
  gas: bigint[]
}

async function main(): Promise<void> {
  const anvil = await startAnvil({ port: ANVIL_PORT })
  try {
    const { deployment, seeded } = await deployLocalChain({
      rpcUrl: anvil.rpcUrl,
      genesisTime: Math.floor(Date.now() / 1000) - ROUND_LENGTH,
      roundLength: ROUND_LENGTH,
    })
    const { client, wallet: funder } = await localClients(anvil.rpcUrl)
    const chain = localChain(deployment.chainId, anvil.rpcUrl)
    const coordinator = { address: deployment.coordinator, abi: swarmCoordinatorAbi } as const
    const collateral = { address: deployment.collateral!.address, abi: collateralTokenAbi } as const
    const round = await client.readContract({ ...coordinator, functionName: 'currentRound' })
    const gateway = { address: deployment.markets!.dpmGateway, abi: dynamicParimutuelGatewayAbi } as const
    const market = seeded.find((m) => m.kind === 'dpm')!.address

    const series: Record<string, Series> = {}
    const sample = async (name: string, act: () => Promise<Hash>): Promise<void> => {
      const t0 = performance.now()
      const hash = await act()
      const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: POLL_MS })
      const ms = performance.now() - t0
      if (receipt.status !== 'success') throw new Error(`${name} reverted (${hash})`)
      const s = (series[name] ??= { ms: [], gas: [] })
      s.ms.push(ms)
      s.gas.push(receipt.gasUsed)
    }

    for (let i = 0; i < SAMPLES; i++) {
      // A fresh burner-like account per sample: its first registration, reward and faucet request.
      const account = privateKeyToAccount(generatePrivateKey())
      await client.waitForTransactionReceipt({
        hash: await funder.sendTransaction({ to: account.address, value: parseEther('1') }),
        pollingInterval: POLL_MS,
      })
      const wallet = createWalletClient({ account, chain, transport: http(anvil.rpcUrl) })
      const peerKey = await generateKeyPair('Ed25519')
      let peerId = ''
      await sample('ETH transfer (baseline)', () =>
        wallet.sendTransaction({ to: funder.account.address, value: 1n }),
      )
      await sample('registerPeer (proof + tx)', async () => {
        const proof = await signRegistration(peerKey, {
          chainId: deployment.chainId,
          coordinator: deployment.coordinator,
          wallet: account.address,
        })
        peerId = proof.peerId
        return wallet.writeContract({
          ...coordinator,
          functionName: 'registerPeer',
          args: [proof.peerId, proof.publicKey, proof.signature],
        })
      })
      await sample('submitReward', () =>
        wallet.writeContract({
          ...coordinator,
          functionName: 'submitReward',
          args: [round, peerId, BigInt(i), keccak256(toHex(`tip ${i}`))],
        }),
      )
      await sample('requestToken (faucet)', () =>
        wallet.writeContract({ ...collateral, functionName: 'requestToken' }),
      )
      await client.waitForTransactionReceipt({
        hash: await wallet.writeContract({
          ...collateral,
          functionName: 'approve',
          args: [market, maxUint256],
        }),
        pollingInterval: POLL_MS,
      })
      await sample('buyExactOut (quote + buy, DPM)', async () => {
        const shares = 10n ** 18n
        const tokensIn = await client.readContract({
          ...gateway,
          functionName: 'quoteBuyExactOut',
          args: [market, 0n, shares],
        })
        return wallet.writeContract({
          ...gateway,
          functionName: 'buyExactOut',
          args: [market, 0n, shares, maxTokensInWithSlippage(tokensIn)],
        })
      })
    }

    const baseline = percentile(series['ETH transfer (baseline)']!.ms, 50)
    const rows: Row[] = []
    const results: Record<string, unknown> = {}
    for (const [name, s] of Object.entries(series)) {
      const p50 = percentile(s.ms, 50)
      const p95 = percentile(s.ms, 95)
      const gas = s.gas[s.gas.length - 1]!
      results[name] = {
        samples: s.ms.length,
        p50Ms: p50,
        p95Ms: p95,
        gasUsed: Number(gas),
        ratioP50: p50 / baseline,
      }
      rows.push({
        metric: `${name}: p50 / p95 ms, gas ${gas}`,
        value: `${fmt(p50)} / ${fmt(p95)}`,
        baseline: fmt(baseline),
        ratio: fmt(p50 / baseline, 2),
      })
    }
    await mkdir(new URL('./results/', import.meta.url), { recursive: true })
    await writeFile(
      resultsFile,
      JSON.stringify(
        { date: new Date().toISOString(), pollMs: POLL_MS, samples: SAMPLES, results },
        null,
        2,
      ) + '\n',
    )
    printTable(`Sign-to-receipt on anvil (automine, receipt poll ${POLL_MS} ms), ${SAMPLES} samples`, rows)
  } finally {
    await anvil.stop()
  }
}

await main()
