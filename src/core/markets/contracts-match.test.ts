// The market contracts against the TS spec, end to end on anvil: ~110 DPM and 30 LMSR markets spread
// over the creation limits (2–20 outcomes, k / b, fees, deposits, 6- and 18-decimal collateral), well
// over a thousand trades, every quote compared to the last unit, every expected revert compared by
// error name and arguments, and the full market state compared after each trade; then settlement,
// redemption and liquidation of part of them. Independent markets run in parallel lanes, each lane
// with its own funded account and its own nonce count.
import {
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createTestClient,
  createWalletClient,
  decodeErrorResult,
  encodeFunctionData,
  http,
  keccak256,
  maxUint256,
  parseEventLogs,
  toHex,
} from 'viem'
import { formatAbiParams, parseAbi } from 'viem/utils'
import type {
  Abi,
  AbiItem,
  AbiParameter,
  Account,
  Address,
  Chain,
  PublicClient,
  Transport,
  WalletClient,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAnvil } from '../../node/cli/anvil.ts'
import type { Anvil } from '../../node/cli/anvil.ts'
import { deployMarkets } from '../../host/chain/deploy-markets.ts'
import type { MarketsDeployment } from '../../host/chain/deployment.ts'
import { collateralTokenAbi, collateralTokenBytecode } from '../../host/chain/generated/CollateralToken.ts'
import { delphiFactoryAbi } from '../../host/chain/generated/DelphiFactory.ts'
import { dpmMarketAbi } from '../../host/chain/generated/DpmMarket.ts'
import { dynamicParimutuelGatewayAbi } from '../../host/chain/generated/DynamicParimutuelGateway.ts'
import { lmsrGatewayAbi } from '../../host/chain/generated/LmsrGateway.ts'
import { anvilAccount, localChain } from '../../host/chain/local-clients.ts'
import { encodeMarketConfig } from './market-config.ts'
import * as dpm from './dpm/dpm.ts'
import { MarketMathError } from './errors.ts'
import * as lmsr from './lmsr/lmsr.ts'
import { Rng } from '../../../test-support/markets/test-rng.ts'
import {
  logUniform,
  pickOutcome,
  sellSize,
  shareSize,
} from '../../../test-support/markets/test-trade-sizes.ts'

// Fixed ports for this file only (19610–19619).
const ANVIL_PORT = 19610
const LANES = 16
const DPM_MARKETS = 110
const LMSR_MARKETS = 30
const DPM_ATTEMPTS = 18
const LMSR_ATTEMPTS = 20
const WAD = 10n ** 18n
const DAY = 86_400n

/** Every error any of the contracts can revert with, to decode a revert whatever its origin. */
const errorsAbi = [
  ...dynamicParimutuelGatewayAbi,
  ...lmsrGatewayAbi,
  ...dpmMarketAbi,
  ...collateralTokenAbi,
].filter((item) => item.type === 'error') as Abi

type Wallet = WalletClient<Transport, Chain, Account>
interface Lane {
  account: Account
  wallet: Wallet
  nonce: number
}
interface Env {
  decimals: number
  token: Address
  markets: MarketsDeployment
}
interface Failure {
  name: string
  args: bigint[]
}
interface Stats {
  trades: number
  reverts: number
  attempts: number
}

let anvil: Anvil | undefined
let client: PublicClient
let chain: Chain
const envs = new Map<number, Env>()
const lanes: Lane[] = []

function laneAccount(i: number): Account {
  return privateKeyToAccount(keccak256(toHex(`tabswarm contracts-match lane ${i}`)))
}

async function send(lane: Lane, to: Address, abi: Abi, functionName: string, args: readonly unknown[]) {
  const data = encodeFunctionData({ abi, functionName, args })
  const hash = await lane.wallet.sendTransaction({
    to,
    data,
    nonce: lane.nonce++,
    gas: 6_000_000n,
    maxFeePerGas: 100_000_000_000n,
    maxPriorityFeePerGas: 1n,
  })
  const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 5 })
  if (receipt.status !== 'success') throw new Error(`${functionName} reverted on chain (${hash})`)
  return receipt
}

/** The error a call reverted with, decoded with every contract's errors. */
function failureOf(e: unknown): Failure {
  const reverted = e instanceof BaseError ? e.walk((x) => x instanceof ContractFunctionRevertedError) : null
  const raw = reverted instanceof ContractFunctionRevertedError ? reverted.raw : undefined
  if (!raw) throw e
  const decoded = decodeErrorResult({ abi: errorsAbi, data: raw })
  return { name: decoded.errorName, args: (decoded.args ?? []).map((a) => BigInt(a as bigint | number)) }
}

async function outcome<T>(p: Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: Failure }> {
  try {
    return { ok: true, value: await p }
  } catch (e) {
    return { ok: false, error: failureOf(e) }
  }
}

function spec<T>(f: () => T): { ok: true; value: T } | { ok: false; error: Failure } {
  try {
    return { ok: true, value: f() }
  } catch (e) {
    if (!(e instanceof MarketMathError)) throw e
    return { ok: false, error: { name: e.name, args: [...e.args] } }
  }
}

const range = (n: number): bigint[] => Array.from({ length: n }, (_, i) => BigInt(i))

async function createMarket(
  lane: Lane,
  factory: Address,
  deposit: bigint,
  config: readonly [bigint, bigint, bigint, bigint, bigint],
): Promise<Address> {
  const encoded = encodeMarketConfig({
    outcomeCount: config[0],
    k: config[1],
    tradingFee: config[2],
    tradingDeadline: config[3],
    settlementDeadline: config[4],
  })
  const receipt = await send(lane, factory, delphiFactoryAbi, 'deployNewMarketProxy', [
    deposit,
    { uri: 'ipfs://contracts-match', uriContentHash: keccak256(toHex('q')) },
    encoded,
  ])
  const [log] = parseEventLogs({ abi: delphiFactoryAbi, logs: receipt.logs, eventName: 'NewMarketProxy' })
  if (!log) throw new Error('no NewMarketProxy event')
  return log.args.marketProxy
}

async function deadlines(): Promise<[bigint, bigint]> {
  const block = await client.getBlock()
  const trading = block.timestamp + DAY
  return [trading, trading + 3_600n]
}

// ——— DPM ———

interface DpmRecord {
  lane: Lane
  env: Env
  address: Address
  model: dpm.DpmMarket
  holdings: bigint[]
}

async function dpmState(env: Env, m: Address, n: number) {
  const gw = env.markets.dpmGateway
  const [s, supplies] = await Promise.all([
    client.readContract({
      address: gw,
      abi: dynamicParimutuelGatewayAbi,
      functionName: 'getMarket',
      args: [m],
    }),
    client.readContract({
      address: gw,
      abi: dynamicParimutuelGatewayAbi,
      functionName: 'totalSupplies',
      args: [m, range(n)],
    }),
  ])
  return {
    pool: s.pool,
    tradingFees: s.tradingFees,
    sumTerm: s.sumTerm36,
    refund: s.refund,
    initialPool: s.initialPool,
    supplies: [...supplies],
  }
}

function dpmExpected(m: dpm.DpmMarket) {
  return {
    pool: m.pool,
    tradingFees: m.tradingFees,
    sumTerm: m.sumTerm,
    refund: m.refund,
    initialPool: m.initialPool,
    supplies: m.supplies,
  }
}

async function runDpmMarket(lane: Lane, index: number, stats: Stats): Promise<DpmRecord> {
  const rng = new Rng(1000 + index)
  const decimals = index % 2 === 0 ? 6 : 18
  const env = envs.get(decimals)!
  const unit = 10n ** BigInt(decimals)
  const n = 2 + (index % 19)
  const k = rng.pick([dpm.MIN_K, dpm.MAX_K, rng.big(dpm.MIN_K, dpm.MAX_K), rng.big(dpm.MIN_K, 5n * WAD)])
  const fee = rng.pick([
    dpm.MIN_TRADING_FEE,
    dpm.MAX_TRADING_FEE,
    rng.big(dpm.MIN_TRADING_FEE, dpm.MAX_TRADING_FEE),
  ])
  const deposit = rng.pick([unit, 1_000_000n * unit, logUniform(rng, unit, 1_000_000n * unit)])
  let model = dpm.createDpmMarket({
    outcomeCount: n,
    k,
    tradingFee: fee,
    tokenDecimals: decimals,
    initialDeposit: deposit,
  })
  const [trading, settlement] = await deadlines()
  const m = await createMarket(lane, env.markets.dpmFactory, deposit, [
    BigInt(n),
    k,
    fee,
    trading,
    settlement,
  ])
  await send(lane, env.token, collateralTokenAbi, 'approve', [m, maxUint256])
  expect(await dpmState(env, m, n)).toEqual(dpmExpected(model))
  const gw = env.markets.dpmGateway
  const holdings = Array.from({ length: n }, () => 0n)
  const read = (functionName: 'quoteBuyExactOut' | 'quoteSellExactIn', o: number, shares: bigint) =>
    outcome(
      client.readContract({
        address: gw,
        abi: dynamicParimutuelGatewayAbi,
        functionName,
        args: [m, BigInt(o), shares],
      }),
    )
  const simulate = (functionName: 'buyExactOut' | 'sellExactIn', o: number, shares: bigint, bound: bigint) =>
    outcome(
      client.simulateContract({
        account: lane.account,
        address: gw,
        abi: dynamicParimutuelGatewayAbi,
        functionName,
        args: [m, BigInt(o), shares, bound],
      }),
    )

  for (let t = 0; t < DPM_ATTEMPTS; t++) {
    stats.attempts++
    const isBuy = rng.int(0, 2) > 0
    const o = isBuy ? pickOutcome(rng, n, undefined) : pickOutcome(rng, n, holdings)
    if (isBuy) {
      const shares = shareSize(rng)
      const expected = spec(() => dpm.quoteBuy(model, o, shares))
      expect(await read('quoteBuyExactOut', o, shares), `buy quote ${index}/${t}`).toEqual(expected)
      if (!expected.ok) {
        expect(await simulate('buyExactOut', o, shares, maxUint256)).toEqual(expected)
        stats.reverts++
        continue
      }
      if (rng.int(0, 9) === 0) {
        const max = expected.value - 1n
        const slip = spec(() => dpm.buyExactOut(model, o, shares, max))
        expect(await simulate('buyExactOut', o, shares, max)).toEqual(slip)
        stats.reverts++
        continue
      }
      await send(lane, gw, dynamicParimutuelGatewayAbi, 'buyExactOut', [m, BigInt(o), shares, expected.value])
      model = dpm.buy(model, o, shares)
      holdings[o]! += shares
    } else {
      const supply = o < n ? model.supplies[o]! : 0n
      const held = o < n ? holdings[o]! : 0n
      let shares = sellSize(rng, held, supply)
      let expected = spec(() => dpm.quoteSell(model, o, shares))
      expect(await read('quoteSellExactIn', o, shares), `sell quote ${index}/${t}`).toEqual(expected)
      if (expected.ok && shares > held) {
        shares = held // the seller must hold the shares too: sell what the lane has
        expected = spec(() => dpm.quoteSell(model, o, shares))
        expect(await read('quoteSellExactIn', o, shares)).toEqual(expected)
      }
      if (!expected.ok) {
        expect(await simulate('sellExactIn', o, shares, 0n)).toEqual(expected)
        stats.reverts++
        continue
      }
      if (rng.int(0, 9) === 0) {
        const min = expected.value + 1n
        const slip = spec(() => dpm.sellExactIn(model, o, shares, min))
        expect(await simulate('sellExactIn', o, shares, min)).toEqual(slip)
        stats.reverts++
        continue
      }
      await send(lane, gw, dynamicParimutuelGatewayAbi, 'sellExactIn', [m, BigInt(o), shares, expected.value])
      model = dpm.sell(model, o, shares)
      holdings[o]! -= shares
    }
    stats.trades++
    expect(await dpmState(env, m, n), `state after ${index}/${t}`).toEqual(dpmExpected(model))
  }
  const idx = range(n)
  const [prices, probs, creatorValue, settleValue] = await Promise.all([
    client.readContract({
      address: gw,
      abi: dynamicParimutuelGatewayAbi,
      functionName: 'spotPrices',
      args: [m, idx],
    }),
    client.readContract({
      address: gw,
      abi: dynamicParimutuelGatewayAbi,
      functionName: 'spotImpliedProbabilities',
      args: [m, idx],
    }),
    client.readContract({
      address: gw,
      abi: dynamicParimutuelGatewayAbi,
      functionName: 'marketCreatorTotalSharesLiquidationValue',
      args: [m],
    }),
    client.readContract({
      address: gw,
      abi: dynamicParimutuelGatewayAbi,
      functionName: 'marketCreatorWinningSharesSettlementValue',
      args: [m, BigInt(n - 1)],
    }),
  ])
  expect([...prices]).toEqual(dpm.spotPrices(model))
  expect([...probs]).toEqual(dpm.impliedProbabilities(model))
  expect(creatorValue).toEqual(dpm.marketCreatorTotalSharesLiquidationValue(model))
  expect(settleValue).toEqual(dpm.marketCreatorWinningSharesSettlementValue(model, n - 1))
  return { lane, env, address: m, model, holdings }
}

// ——— LMSR ———

interface LmsrRecord {
  lane: Lane
  env: Env
  address: Address
  model: lmsr.LmsrMarket
}

async function lmsrState(env: Env, m: Address, n: number) {
  const gw = env.markets.lmsrGateway
  const [s, supplies, exps] = await Promise.all([
    client.readContract({ address: gw, abi: lmsrGatewayAbi, functionName: 'getMarket', args: [m] }),
    client.readContract({
      address: gw,
      abi: lmsrGatewayAbi,
      functionName: 'totalSupplies',
      args: [m, range(n)],
    }),
    client.readContract({ address: gw, abi: lmsrGatewayAbi, functionName: 'outcomeExps', args: [m] }),
  ])
  return {
    pool: s.pool,
    tradingFees: s.tradingFees,
    expSum: s.expSum,
    initialPool: s.initialPool,
    supplies: [...supplies],
    exps: [...exps],
  }
}

function lmsrExpected(m: lmsr.LmsrMarket) {
  return {
    pool: m.pool,
    tradingFees: m.tradingFees,
    expSum: m.expSum,
    initialPool: m.initialPool,
    supplies: m.supplies,
    exps: m.exps,
  }
}

async function runLmsrMarket(lane: Lane, index: number, stats: Stats): Promise<LmsrRecord> {
  const rng = new Rng(5000 + index)
  const decimals = index % 2 === 0 ? 6 : 18
  const env = envs.get(decimals)!
  const n = 2 + ((index * 7) % 19)
  const b = rng.pick([
    lmsr.MIN_LIQUIDITY,
    logUniform(rng, lmsr.MIN_LIQUIDITY, 100_000n * WAD),
    lmsr.MAX_LIQUIDITY / 1000n,
  ])
  const fee = rng.pick([0n, dpm.MAX_TRADING_FEE, rng.big(0n, dpm.MAX_TRADING_FEE)])
  let model = lmsr.createLmsrMarket({ outcomeCount: n, b, tradingFee: fee, tokenDecimals: decimals })
  const [trading, settlement] = await deadlines()
  const m = await createMarket(lane, env.markets.lmsrFactory, model.initialPool, [
    BigInt(n),
    b,
    fee,
    trading,
    settlement,
  ])
  await send(lane, env.token, collateralTokenAbi, 'approve', [m, maxUint256])
  expect(await lmsrState(env, m, n)).toEqual(lmsrExpected(model))
  const gw = env.markets.lmsrGateway
  const read = async (functionName: 'quoteBuyExactOut' | 'quoteSellExactIn', o: number, shares: bigint) => {
    const r = await outcome(
      client.readContract({ address: gw, abi: lmsrGatewayAbi, functionName, args: [m, BigInt(o), shares] }),
    )
    return r.ok
      ? { ok: true as const, value: { tokens: r.value[0], outcomeNewExp: r.value[1], newExpSum: r.value[2] } }
      : r
  }
  const simulate = (functionName: 'buyExactOut' | 'sellExactIn', o: number, shares: bigint, bound: bigint) =>
    outcome(
      client.simulateContract({
        account: lane.account,
        address: gw,
        abi: lmsrGatewayAbi,
        functionName,
        args: [m, BigInt(o), shares, bound],
      }),
    )

  for (let t = 0; t < LMSR_ATTEMPTS; t++) {
    stats.attempts++
    const isBuy = rng.int(0, 2) > 0
    const o = pickOutcome(rng, n, isBuy ? undefined : model.supplies)
    if (isBuy) {
      const shares = rng.int(0, 10) === 0 ? logUniform(rng, 100n * b, 200n * b) : shareSize(rng)
      const q = spec(() => lmsr.quoteBuyDetailed(model, o, shares))
      const expected = q.ok
        ? {
            ok: true as const,
            value: {
              tokens: q.value.tokensIn,
              outcomeNewExp: q.value.outcomeNewExp,
              newExpSum: q.value.newExpSum,
            },
          }
        : q
      expect(await read('quoteBuyExactOut', o, shares), `lmsr buy quote ${index}/${t}`).toEqual(expected)
      if (!q.ok) {
        expect(await simulate('buyExactOut', o, shares, maxUint256)).toEqual(q)
        stats.reverts++
        continue
      }
      await send(lane, gw, lmsrGatewayAbi, 'buyExactOut', [m, BigInt(o), shares, q.value.tokensIn])
      model = lmsr.buy(model, o, shares)
    } else {
      const supply = o < n ? model.supplies[o]! : 0n
      const shares = sellSize(rng, supply, supply)
      const q = spec(() => lmsr.quoteSellDetailed(model, o, shares))
      const expected = q.ok
        ? {
            ok: true as const,
            value: {
              tokens: q.value.tokensOut,
              outcomeNewExp: q.value.outcomeNewExp,
              newExpSum: q.value.newExpSum,
            },
          }
        : q
      expect(await read('quoteSellExactIn', o, shares), `lmsr sell quote ${index}/${t}`).toEqual(expected)
      if (!q.ok) {
        expect(await simulate('sellExactIn', o, shares, 0n)).toEqual(q)
        stats.reverts++
        continue
      }
      if (rng.int(0, 9) === 0) {
        const min = q.value.tokensOut + 1n
        expect(await simulate('sellExactIn', o, shares, min)).toEqual(
          spec(() => lmsr.sellExactIn(model, o, shares, min)),
        )
        stats.reverts++
        continue
      }
      await send(lane, gw, lmsrGatewayAbi, 'sellExactIn', [m, BigInt(o), shares, q.value.tokensOut])
      model = lmsr.sell(model, o, shares)
    }
    stats.trades++
    expect(await lmsrState(env, m, n), `lmsr state after ${index}/${t}`).toEqual(lmsrExpected(model))
  }
  const prices = await client.readContract({
    address: gw,
    abi: lmsrGatewayAbi,
    functionName: 'spotPrices',
    args: [m, range(n)],
  })
  expect([...prices]).toEqual(lmsr.prices(model))
  return { lane, env, address: m, model }
}

// ——— set-up ———

async function inLanes<T>(count: number, run: (lane: Lane, index: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count)
  await Promise.all(
    lanes.map(async (lane, l) => {
      for (let i = l; i < count; i += lanes.length) results[i] = await run(lane, i)
    }),
  )
  return results
}

describe('market contracts match the TS maths', () => {
  beforeAll(async () => {
    anvil = await startAnvil({ port: ANVIL_PORT })
    chain = localChain(anvil.chainId, anvil.rpcUrl)
    const transport = http(anvil.rpcUrl, { batch: { batchSize: 64, wait: 0 } })
    client = createPublicClient({ chain, transport }) as PublicClient
    const testClient = createTestClient({ chain, mode: 'anvil', transport })
    const deployer: Lane = {
      account: anvilAccount(0),
      wallet: createWalletClient({ account: anvilAccount(0), chain, transport }),
      nonce: await client.getTransactionCount({ address: anvilAccount(0).address }),
    }
    for (let i = 0; i < LANES; i++) {
      const account = laneAccount(i)
      await testClient.setBalance({ address: account.address, value: 10n ** 24n })
      lanes.push({ account, wallet: createWalletClient({ account, chain, transport }), nonce: 0 })
    }
    for (const decimals of [6, 18]) {
      const hash = await deployer.wallet.deployContract({
        abi: collateralTokenAbi,
        bytecode: collateralTokenBytecode,
        args: [`Test ${decimals}`, `T${decimals}`, decimals, 0n, 1n, deployer.account.address],
        nonce: deployer.nonce++,
      })
      const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 5 })
      const token = receipt.contractAddress!
      const markets = await deployMarkets({
        rpcUrl: anvil.rpcUrl,
        collateral: token,
        oracle: anvilAccount(1).address,
      })
      deployer.nonce += 2
      envs.set(decimals, { decimals, token, markets })
      for (const lane of lanes) {
        await send(deployer, token, collateralTokenAbi, 'mint', [
          lane.account.address,
          10n ** 15n * 10n ** BigInt(decimals),
        ])
        for (const factory of [markets.dpmFactory, markets.lmsrFactory])
          await send(lane, token, collateralTokenAbi, 'approve', [factory, maxUint256])
      }
    }
  }, 120_000)

  afterAll(async () => {
    await anvil?.stop()
  })

  const dpmStats: Stats = { trades: 0, reverts: 0, attempts: 0 }
  const lmsrStats: Stats = { trades: 0, reverts: 0, attempts: 0 }
  let dpmMarkets: DpmRecord[] = []
  let lmsrMarkets: LmsrRecord[] = []

  it('creation limits revert with the TS error name and arguments', async () => {
    const lane = lanes[0]!
    const env = envs.get(6)!
    const [trading, settlement] = await deadlines()
    const cases: [number, bigint, bigint, bigint][] = [
      [1, WAD, dpm.MIN_TRADING_FEE, 10n ** 6n],
      [21, WAD, dpm.MIN_TRADING_FEE, 10n ** 6n],
      [5, WAD - 1n, dpm.MIN_TRADING_FEE, 10n ** 6n],
      [5, dpm.MAX_K + 1n, dpm.MIN_TRADING_FEE, 10n ** 6n],
      [5, WAD, dpm.MIN_TRADING_FEE - 1n, 10n ** 6n],
      [5, WAD, dpm.MAX_TRADING_FEE + 1n, 10n ** 6n],
      [5, WAD, dpm.MIN_TRADING_FEE, 10n ** 6n - 1n],
      [5, WAD, dpm.MIN_TRADING_FEE, 10n ** 12n + 1n],
      [0, 0n, 0n, 0n],
    ]
    for (const [n, k, fee, deposit] of cases) {
      const expected = spec(() =>
        dpm.createDpmMarket({
          outcomeCount: n,
          k,
          tradingFee: fee,
          tokenDecimals: 6,
          initialDeposit: deposit,
        }),
      )
      expect(expected.ok).toBe(false)
      const config = encodeMarketConfig({
        outcomeCount: BigInt(n),
        k,
        tradingFee: fee,
        tradingDeadline: trading,
        settlementDeadline: settlement,
      })
      const got = await outcome(
        client.simulateContract({
          account: lane.account,
          address: env.markets.dpmFactory,
          abi: delphiFactoryAbi,
          functionName: 'deployNewMarketProxy',
          args: [deposit, { uri: '', uriContentHash: keccak256('0x') }, config],
        }),
      )
      expect(got).toEqual(expected)
    }
  })

  it(`${DPM_MARKETS} DPM markets: every quote, revert and state equals dpm.ts`, async () => {
    dpmMarkets = await inLanes(DPM_MARKETS, (lane, i) => runDpmMarket(lane, i, dpmStats))
    console.log(
      `DPM: ${DPM_MARKETS} markets, ${dpmStats.trades} trades, ${dpmStats.reverts} of ${dpmStats.attempts} attempts reverted as expected`,
    )
    expect(dpmStats.trades).toBeGreaterThanOrEqual(1_000)
    expect(dpmStats.reverts / dpmStats.attempts).toBeGreaterThanOrEqual(0.1)
  }, 240_000)

  it(`${LMSR_MARKETS} LMSR markets: every quote, revert and state equals lmsr.ts`, async () => {
    lmsrMarkets = await inLanes(LMSR_MARKETS, (lane, i) => runLmsrMarket(lane, i, lmsrStats))
    console.log(
      `LMSR: ${LMSR_MARKETS} markets, ${lmsrStats.trades} trades, ${lmsrStats.reverts} of ${lmsrStats.attempts} attempts reverted as expected`,
    )
    expect(lmsrStats.trades).toBeGreaterThanOrEqual(250)
    expect(lmsrStats.reverts / lmsrStats.attempts).toBeGreaterThanOrEqual(0.1)
  }, 240_000)

  it('settlement, redemption and liquidation pay what the TS maths says', async () => {
    const testClient = createTestClient({ chain, mode: 'anvil', transport: http(anvil!.rpcUrl) })
    const oracle: Lane = {
      account: anvilAccount(1),
      wallet: createWalletClient({ account: anvilAccount(1), chain, transport: http(anvil!.rpcUrl) }),
      nonce: await client.getTransactionCount({ address: anvilAccount(1).address }),
    }
    await testClient.increaseTime({ seconds: Number(DAY) + 600 })
    await testClient.mine({ blocks: 1 })
    const rng = new Rng(77)

    // a third of the DPM markets and half of the LMSR markets settle; their winners redeem
    for (const [i, r] of dpmMarkets.entries()) {
      if (i % 3 !== 0) continue
      const w = rng.int(0, r.model.outcomeCount - 1)
      const gw = r.env.markets.dpmGateway
      const { result } = await client.simulateContract({
        account: oracle.account,
        address: gw,
        abi: dynamicParimutuelGatewayAbi,
        functionName: 'settleMarket',
        args: [r.address, BigInt(w)],
      })
      const s = dpm.settle(r.model, w)
      expect([...result]).toEqual([s.marketCreatorReward, s.refund, s.marketCreatorTradingFeesCut])
      await send(oracle, gw, dynamicParimutuelGatewayAbi, 'settleMarket', [r.address, BigInt(w)])
      const redeemed = spec(() => dpm.redeem(s, r.holdings[w]!))
      const got = await outcome(
        client.simulateContract({
          account: r.lane.account,
          address: gw,
          abi: dynamicParimutuelGatewayAbi,
          functionName: 'redeem',
          args: [r.address],
        }),
      )
      expect(got.ok ? { ok: true, value: got.value.result[1] } : got).toEqual(
        redeemed.ok ? { ok: true, value: redeemed.value.tokensOut } : redeemed,
      )
    }
    for (const [i, r] of lmsrMarkets.entries()) {
      if (i % 2 !== 0) continue
      const w = rng.int(0, r.model.outcomeCount - 1)
      const gw = r.env.markets.lmsrGateway
      const { result } = await client.simulateContract({
        account: oracle.account,
        address: gw,
        abi: lmsrGatewayAbi,
        functionName: 'settleMarket',
        args: [r.address, BigInt(w)],
      })
      expect(result[0] + result[2]).toEqual(lmsr.creatorSettlementValue(r.model, w))
      await send(oracle, gw, lmsrGatewayAbi, 'settleMarket', [r.address, BigInt(w)])
      const shares = r.model.supplies[w]!
      const got = await outcome(
        client.simulateContract({
          account: r.lane.account,
          address: gw,
          abi: lmsrGatewayAbi,
          functionName: 'redeem',
          args: [r.address],
        }),
      )
      const pays = lmsr.payoutIfWins(r.model, w, shares)
      expect(got.ok ? got.value.result : got).toEqual(
        shares === 0n
          ? { ok: false, error: { name: 'RedeemZeroShares', args: [] } }
          : pays === 0n
            ? { ok: false, error: { name: 'RedeemZeroTokensOut', args: [] } }
            : [shares, pays],
      )
    }

    // the rest expire; a third of the DPM markets are liquidated by their holders and creators
    await testClient.increaseTime({ seconds: 7_200 })
    await testClient.mine({ blocks: 1 })
    for (const [i, r] of dpmMarkets.entries()) {
      if (i % 3 !== 1) continue
      const gw = r.env.markets.dpmGateway
      const indices = r.holdings.flatMap((h, o) => (h > 0n ? [o] : []))
      const expected = spec(() => dpm.liquidate(r.model, r.holdings, indices))
      const got = await outcome(
        client.simulateContract({
          account: r.lane.account,
          address: gw,
          abi: dynamicParimutuelGatewayAbi,
          functionName: 'liquidate',
          args: [r.address, indices.map(BigInt)],
        }),
      )
      expect(got.ok ? { ok: true, value: [[...got.value.result[0]], got.value.result[1]] } : got).toEqual(
        expected.ok
          ? { ok: true, value: [expected.value.sharesIn, expected.value.totalTokensOut] }
          : expected,
      )
      if (!expected.ok) continue
      await send(r.lane, gw, dynamicParimutuelGatewayAbi, 'liquidate', [r.address, indices.map(BigInt)])
      const after = expected.value.market
      const { result: creatorPaid } = await client.simulateContract({
        account: r.lane.account,
        address: gw,
        abi: dynamicParimutuelGatewayAbi,
        functionName: 'liquidateMarketCreationShares',
        args: [r.address],
      })
      expect(creatorPaid).toEqual(
        dpm.marketCreatorTotalSharesLiquidationValue(after) + after.refund + after.tradingFees,
      )
    }
    // expired LMSR markets: part of the holding is liquidated, then the creator, then the rest
    for (const [i, r] of lmsrMarkets.entries()) {
      if (i % 2 === 0) continue
      const gw = r.env.markets.lmsrGateway
      const held = r.model.supplies.flatMap((q, o) => (q > 0n ? [o] : []))
      const first = held.filter((_, j) => j % 2 === 0)
      const rest = held.filter((_, j) => j % 2 === 1)
      let model = r.model
      const outstanding = [...r.model.supplies]
      const liquidateAndCompare = async (indices: number[]) => {
        const expected = spec(() => lmsr.liquidate(model, outstanding, indices))
        const got = await outcome(
          client.simulateContract({
            account: r.lane.account,
            address: gw,
            abi: lmsrGatewayAbi,
            functionName: 'liquidate',
            args: [r.address, indices.map(BigInt)],
          }),
        )
        expect(got.ok ? { ok: true, value: [[...got.value.result[0]], got.value.result[1]] } : got).toEqual(
          expected.ok
            ? { ok: true, value: [expected.value.sharesIn, expected.value.totalTokensOut] }
            : expected,
        )
        if (!expected.ok) return
        await send(r.lane, gw, lmsrGatewayAbi, 'liquidate', [r.address, indices.map(BigInt)])
        model = expected.value.market
        for (const o of indices) outstanding[o] = 0n
      }
      if (first.length > 0) await liquidateAndCompare(first)
      const creatorValue = lmsr.creatorLiquidationValue(model, outstanding)
      const { result: creatorPaid } = await client.simulateContract({
        account: r.lane.account,
        address: gw,
        abi: lmsrGatewayAbi,
        functionName: 'liquidateMarketCreationShares',
        args: [r.address],
      })
      expect(creatorPaid).toEqual(creatorValue + model.tradingFees)
      await send(r.lane, gw, lmsrGatewayAbi, 'liquidateMarketCreationShares', [r.address])
      model = { ...model, pool: model.pool - creatorValue }
      if (rest.length > 0) await liquidateAndCompare(rest)
    }
  }, 120_000)
})

// Delphi's deployed gateway and factory, as published (research/delphi.md, "Exact interface").
const DELPHI_GATEWAY = [
  'error BuyTooSmall()',
  'error GrossTokensOutNotPositive()',
  'error MarketNotOpen()',
  'error MarketProxyNotDeployedByFactory(address marketProxy)',
  'error OutcomeSupplyBelowMinDelta(uint256 newSupply, uint256 minDelta)',
  'error SellOverlap()',
  'error SellTooSmall()',
  'error SharesInBelowMinDelta(uint256 sharesIn, uint256 minDelta)',
  'error SharesInExceedSupply(uint256 sharesIn, uint256 supply)',
  'error SharesOutBelowMinDelta(uint256 sharesOut, uint256 minDelta)',
  'error SqrtOverlap()',
  'error TokenDecimalsTooHigh(uint8 decimals)',
  'error TokenDecimalsTooLow(uint8 decimals)',
  'error TokensInBelowMin(uint256 tokensIn, uint256 minTokensIn)',
  'error TokensInExceedsMax(uint256 tokensIn, uint256 maxTokensIn)',
  'error TokensOutBelowMin(uint256 tokensOut, uint256 minTokensOut)',
  'error ZeroNetTokensIn()',
  'error ZeroSharesIn()',
  'error ZeroSharesOut()',
  'error ZeroTokensIn()',
  'error ZeroTokensOut()',
  'event GatewayBuy(address indexed marketProxy, address indexed buyer, uint256 indexed outcomeIdx, uint256 tokensIn, uint256 sharesOut)',
  'event GatewayLiquidation(address indexed marketProxy, address indexed liquidator, uint256[] outcomeIndices, uint256[] sharesIn, uint256 totalTokensOut)',
  'event GatewayMarketFailed(address indexed marketProxy)',
  'event GatewayMarketSettled(address indexed marketProxy, uint256 winningOutcomeIdx, uint256 marketCreatorReward, uint256 refund, uint256 marketCreatorTradingFeesCut)',
  'event GatewayRedemption(address indexed marketProxy, address indexed redeemer, uint256 sharesIn, uint256 tokensOut)',
  'event GatewaySell(address indexed marketProxy, address indexed seller, uint256 indexed outcomeIdx, uint256 sharesIn, uint256 tokensOut)',
  'event GatewayWinnerSubmitted(address indexed marketProxy, uint256 winningOutcomeIdx, uint256 marketCreatorReward, uint256 refund, uint256 marketCreatorTradingFeesCut)',
  'event MarketResolutionRequested(address indexed marketProxy, address indexed keeper)',
  'function MIN_SHARES_DELTA() view returns (uint256)',
  'function MIN_TOKENS_DELTA() view returns (uint256)',
  'function TOKEN() view returns (address)',
  'function TOKEN_DECIMAL_SCALER() view returns (uint256)',
  'function allowance(address marketProxy, address owner, address spender, uint256 id) view returns (uint256)',
  'function balanceOf(address marketProxy, address owner, uint256 outcomeIdx) view returns (uint256)',
  'function batchBalanceOf(address marketProxy, address[] owners, uint256[] outcomeIndices) view returns (uint256[])',
  'function buyExactOut(address marketProxy, uint256 outcomeIdx, uint256 sharesOut, uint256 maxTokensIn) returns (uint256 tokensIn)',
  'function calculateInitialDepositAndRefund(uint256 initialPool, uint256 outcomeCount) view returns (uint256 initialDeposit, uint256 refund)',
  'function calculateInitialPoolAndRefund(uint256 initialDeposit, uint256 outcomeCount) view returns (uint256 initialPool, uint256 refund)',
  'function delphiFactory() view returns (address)',
  'function failMarket(address marketProxy)',
  'function getMarket(address marketProxy) view returns (((uint256 outcomeCount, uint256 k, uint256 tradingFee, uint256 tradingDeadline, uint256 settlementDeadline) config, uint256 initialPool, uint256 pool, uint256 tradingFees, uint256 refund, uint256 sumTerm36, uint256 winningOutcomeIdx))',
  'function isOperator(address marketProxy, address operator, address spender) view returns (bool)',
  'function liquidate(address marketProxy, uint256[] outcomeIndices) returns (uint256[] sharesIn, uint256 totalTokensOut)',
  'function liquidateMarketCreationShares(address marketProxy) returns (uint256 _totalTokensOut)',
  'function marketCreationSharesLiquidated(address marketProxy) view returns (bool)',
  'function marketCreator(address marketProxy) view returns (address)',
  'function marketCreatorSharesPerOutcome(address marketProxy) view returns (uint256)',
  'function marketCreatorTotalSharesLiquidationValue(address marketProxy) view returns (uint256 tokensOut)',
  'function marketCreatorWinningSharesSettlementValue(address marketProxy, uint256 outcomeIdx) view returns (uint256 tokensOut)',
  'function marketMetadata(address marketProxy) view returns ((string uri, bytes32 uriContentHash))',
  'function marketStatus(address marketProxy) view returns (uint8)',
  'function maxInitialDeposit(address marketProxy) view returns (uint256)',
  'function maxK(address marketProxy) view returns (uint256)',
  'function maxOutcomeCount(address marketProxy) view returns (uint256)',
  'function maxSettlementWindow(address marketProxy) view returns (uint256)',
  'function maxTradingFee(address marketProxy) view returns (uint256)',
  'function maxTradingWindow(address marketProxy) view returns (uint256)',
  'function minInitialDeposit(address marketProxy) view returns (uint256)',
  'function minK(address marketProxy) view returns (uint256)',
  'function minOutcomeCount(address marketProxy) view returns (uint256)',
  'function minSettlementWindow(address marketProxy) view returns (uint256)',
  'function minTradingFee(address marketProxy) view returns (uint256)',
  'function minTradingWindow(address marketProxy) view returns (uint256)',
  'function oracleRelayer() view returns (address)',
  'function outcomeSuppliesSum(address marketProxy) view returns (uint256)',
  'function quoteBuyExactOut(address marketProxy, uint256 outcomeIdx, uint256 sharesOut) view returns (uint256 tokensIn)',
  'function quoteSellExactIn(address marketProxy, uint256 outcomeIdx, uint256 sharesIn) view returns (uint256 tokensOut)',
  'function redeem(address marketProxy) returns (uint256 sharesIn, uint256 tokensOut)',
  'function resolveMarket(address marketProxy)',
  'function sellExactIn(address marketProxy, uint256 outcomeIdx, uint256 sharesIn, uint256 minTokensOut) returns (uint256 tokensOut)',
  'function spotImpliedProbabilities(address marketProxy, uint256[] outcomeIndices) view returns (uint256[])',
  'function spotImpliedProbability(address marketProxy, uint256 outcomeIdx) view returns (uint256)',
  'function spotPrice(address marketProxy, uint256 outcomeIdx) view returns (uint256)',
  'function spotPrices(address marketProxy, uint256[] outcomeIndices) view returns (uint256[])',
  'function submitWinner(address marketProxy, uint256 winningOutcomeIdx) returns (uint256 marketCreatorReward, uint256 refund, uint256 marketCreatorTradingFeesCut)',
  'function totalSupplies(address marketProxy, uint256[] outcomeIndices) view returns (uint256[])',
  'function totalSupply(address marketProxy, uint256 outcomeIdx) view returns (uint256)',
] as const
const DELPHI_FACTORY = [
  'function IMPLEMENTATION() view returns (address)',
  'function getTotalMarketProxiesCount() view returns (uint256)',
  'function marketProxyExists(address marketProxy) view returns (bool)',
  'function marketProxiesExist(address[] marketProxies) view returns (bool[])',
] as const

/** A comparable signature: kind, name, named inputs and outputs, mutability (pure reads as view), indexed flags. */
function signature(item: AbiItem): string {
  if (item.type !== 'function' && item.type !== 'event' && item.type !== 'error') return ''
  const params = (ps: readonly AbiParameter[]) => formatAbiParams(ps, { includeName: true })
  const head = `${item.type} ${item.name}(${params(item.inputs)})`
  if (item.type === 'function') {
    const mutability = item.stateMutability === 'pure' ? 'view' : item.stateMutability
    return `${head} -> (${params(item.outputs)}) ${mutability}`
  }
  if (item.type === 'event') return `${head} ${item.inputs.map((i) => (i.indexed ? 1 : 0)).join('')}`
  return head
}

describe('the gateway and factory ABIs', () => {
  it('include every function, event and error of Delphi’s published interface, signature for signature', () => {
    for (const [abi, published] of [
      [dynamicParimutuelGatewayAbi, DELPHI_GATEWAY],
      [delphiFactoryAbi, DELPHI_FACTORY],
    ] as const) {
      const have = new Set((abi as Abi).map(signature))
      const missing = parseAbi(published)
        .map(signature)
        .filter((sig) => !have.has(sig))
      expect(missing).toEqual([])
    }
  })

  it('give the LMSR gateway the same trading, exit and settlement functions', () => {
    const names = new Set(lmsrGatewayAbi.map((item) => ('name' in item ? item.name : '')))
    const trading = [
      'quoteBuyExactOut',
      'quoteSellExactIn',
      'buyExactOut',
      'sellExactIn',
      'spotPrice',
      'spotPrices',
    ]
    const rest = [
      'redeem',
      'liquidate',
      'resolveMarket',
      'failMarket',
      'submitWinner',
      'settleMarket',
      'marketStatus',
      'getMarket',
    ]
    for (const name of [...trading, ...rest]) expect(names, name).toContain(name)
  })
})
