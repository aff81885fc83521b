// Writes contracts/test/MarketVectors.t.sol: trade sequences computed by the TS spec (src/core/markets/dpm/dpm.ts,
// lmsr.ts) that the forge test replays against the contracts, checking every quote, every revert (name
// and arguments) and the market state after each trade. Regenerate after changing the maths:
//   node --import ./src/polyfills/register.js contracts/test/market-vectors.ts
import { writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import * as dpm from '../../src/core/markets/dpm/dpm.ts'
import * as lmsr from '../../src/core/markets/lmsr/lmsr.ts'
import { MarketMathError } from '../../src/core/markets/errors.ts'
import { Rng } from '../../test-support/markets/test-rng.ts'
import { pickOutcome, sellSize, shareSize } from '../../test-support/markets/test-trade-sizes.ts'

const WAD = 10n ** 18n
const here = dirname(fileURLToPath(import.meta.url))

type Outcome<T> = { ok: true; value: T } | { ok: false; error: MarketMathError }

function attempt<T>(f: () => T): Outcome<T> {
  try {
    return { ok: true, value: f() }
  } catch (e) {
    if (e instanceof MarketMathError) return { ok: false, error: e }
    throw e
  }
}

function errExpr(e: MarketMathError): string {
  const args = e.args.map((a) => `, ${a}`).join('')
  return `err(IMarketErrors.${e.name}.selector${args})`
}

/** uint256 words as a Solidity hex literal (abi.encode of many values would overflow the stack). */
function words(xs: bigint[]): string {
  return `hex"${xs.map((x) => x.toString(16).padStart(64, '0')).join('')}"`
}

interface Trader {
  holdings: bigint[]
}

function dpmMarketTest(index: number, rng: Rng): string {
  const decimals = rng.pick([6, 18])
  const n = rng.int(2, 20)
  const k = rng.big(dpm.MIN_K, dpm.MAX_K)
  const fee = rng.big(dpm.MIN_TRADING_FEE, dpm.MAX_TRADING_FEE)
  const unit = 10n ** BigInt(decimals)
  const deposit = rng.logBig(unit, 1_000_000n * unit)
  let m = dpm.createDpmMarket({
    outcomeCount: n,
    k,
    tradingFee: fee,
    tokenDecimals: decimals,
    initialDeposit: deposit,
  })
  const gw = `dpm${decimals}`
  const lines = [
    `    function test_dpm_${index}() public {`,
    `        address m = create(${gw}, ${n}, ${k}, ${fee}, ${deposit});`,
    `        fund(${gw}, m, ALICE, ${10n ** 12n * unit});`,
    `        _dst(m, ${m.pool}, ${m.tradingFees}, ${m.sumTerm}, ${m.refund});`,
  ]
  const alice: Trader = { holdings: Array.from({ length: n }, () => 0n) }
  for (let t = 0; t < 24; t++) {
    const isBuy = rng.int(0, 2) > 0
    const outcome = pickOutcome(rng, n, isBuy ? undefined : alice.holdings)
    if (isBuy) {
      const shares = shareSize(rng)
      const q = attempt(() => dpm.quoteBuy(m, outcome, shares))
      if (!q.ok) {
        lines.push(`        _dbx(${gw}, m, ${outcome}, ${shares}, ${errExpr(q.error)});`)
        continue
      }
      if (rng.int(0, 9) === 0) {
        const max = q.value - 1n
        lines.push(
          `        _dbx(${gw}, m, ${outcome}, ${shares}, ${max}, err(IMarketErrors.TokensInExceedsMax.selector, ${q.value}, ${max}));`,
        )
        continue
      }
      m = dpm.buy(m, outcome, shares)
      alice.holdings[outcome]! += shares
      lines.push(`        _db(${gw}, m, ${outcome}, ${shares}, ${q.value});`)
    } else {
      const supply = outcome < n ? m.supplies[outcome]! : 0n
      const held = outcome < n ? alice.holdings[outcome]! : 0n
      let shares = sellSize(rng, held, supply)
      const q = attempt(() => dpm.quoteSell(m, outcome, shares))
      if (!q.ok) {
        lines.push(`        _dsx(${gw}, m, ${outcome}, ${shares}, ${errExpr(q.error)});`)
        continue
      }
      if (shares > held) shares = held // the contract would also check the seller's balance
      const q2 = attempt(() => dpm.quoteSell(m, outcome, shares))
      if (!q2.ok) {
        lines.push(`        _dsx(${gw}, m, ${outcome}, ${shares}, ${errExpr(q2.error)});`)
        continue
      }
      if (rng.int(0, 9) === 0) {
        const min = q2.value + 1n
        lines.push(
          `        _dsx(${gw}, m, ${outcome}, ${shares}, ${min}, err(IMarketErrors.TokensOutBelowMin.selector, ${q2.value}, ${min}));`,
        )
        continue
      }
      m = dpm.sell(m, outcome, shares)
      alice.holdings[outcome]! -= shares
      lines.push(`        _ds(${gw}, m, ${outcome}, ${shares}, ${q2.value});`)
    }
    lines.push(`        _dst(m, ${m.pool}, ${m.tradingFees}, ${m.sumTerm}, ${m.refund});`)
  }
  lines.push(`        _dviews(${gw}, m, ${words(dpm.spotPrices(m))}, ${words(dpm.impliedProbabilities(m))});`)
  lines.push(
    `        _dcreator(${gw}, m, ${dpm.marketCreatorTotalSharesLiquidationValue(m)}, ${dpm.marketCreatorWinningSharesSettlementValue(m, 0)});`,
  )
  lines.push('    }')
  return lines.join('\n')
}

function lmsrMarketTest(index: number, rng: Rng): string {
  const decimals = rng.pick([6, 18])
  const n = rng.int(2, 20)
  const b = rng.logBig(lmsr.MIN_LIQUIDITY, 100_000n * WAD)
  const fee = rng.big(0n, dpm.MAX_TRADING_FEE)
  let m = lmsr.createLmsrMarket({ outcomeCount: n, b, tradingFee: fee, tokenDecimals: decimals })
  const gw = `lmsr${decimals}`
  const unit = 10n ** BigInt(decimals)
  const lines = [
    `    function test_lmsr_${index}() public {`,
    `        address m = create(${gw}, ${n}, ${b}, ${fee}, ${m.initialPool});`,
    `        fund(${gw}, m, ALICE, ${10n ** 12n * unit});`,
    `        _lst(m, ${m.pool}, ${m.tradingFees}, ${m.expSum});`,
  ]
  const held: bigint[] = Array.from({ length: n }, () => 0n)
  for (let t = 0; t < 20; t++) {
    const isBuy = rng.int(0, 2) > 0
    const outcome = pickOutcome(rng, n, isBuy ? undefined : held)
    if (isBuy) {
      const shares = rng.int(0, 12) === 0 ? rng.logBig(100n * b, 200n * b) : shareSize(rng)
      const q = attempt(() => lmsr.quoteBuyDetailed(m, outcome, shares))
      if (!q.ok) {
        lines.push(`        _lbx(${gw}, m, ${outcome}, ${shares}, ${errExpr(q.error)});`)
        continue
      }
      m = lmsr.buy(m, outcome, shares)
      held[outcome]! += shares
      lines.push(
        `        _lb(${gw}, m, ${outcome}, ${shares}, abi.encode(${q.value.tokensIn}, ${q.value.outcomeNewExp}, ${q.value.newExpSum}));`,
      )
    } else {
      const supply = outcome < n ? m.supplies[outcome]! : 0n
      const h = outcome < n ? held[outcome]! : 0n
      const shares = sellSize(rng, h, supply)
      const q = attempt(() => lmsr.quoteSellDetailed(m, outcome, shares))
      if (!q.ok) {
        lines.push(`        _lsx(${gw}, m, ${outcome}, ${shares}, ${errExpr(q.error)});`)
        continue
      }
      if (shares > h) continue // supply is Alice's only, so this cannot happen
      m = lmsr.sell(m, outcome, shares)
      held[outcome]! -= shares
      lines.push(
        `        _ls(${gw}, m, ${outcome}, ${shares}, abi.encode(${q.value.tokensOut}, ${q.value.outcomeNewExp}, ${q.value.newExpSum}));`,
      )
    }
    lines.push(`        _lst(m, ${m.pool}, ${m.tradingFees}, ${m.expSum});`)
  }
  lines.push(`        _lviews(${gw}, m, ${words(lmsr.prices(m))});`)
  lines.push('    }')
  return lines.join('\n')
}

const rng = new Rng(0x7ab5)
const body = [
  '// SPDX-License-Identifier: MIT',
  '// Generated by contracts/test/market-vectors.ts from src/core/markets/dpm/dpm.ts and lmsr.ts. Do not edit:',
  '// node --import ./src/polyfills/register.js contracts/test/market-vectors.ts',
  'pragma solidity ^0.8.24;',
  '',
  'import {IMarketErrors} from "../src/IMarketErrors.sol";',
  'import {MarketVectorsBase} from "./MarketVectorsBase.sol";',
  '',
  '/// Trade sequences whose every quote, revert and state the TS spec computed.',
  'contract MarketVectorsTest is MarketVectorsBase {',
  ...Array.from({ length: 12 }, (_, i) => dpmMarketTest(i, rng) + '\n'),
  ...Array.from({ length: 8 }, (_, i) => lmsrMarketTest(i, rng) + '\n'),
  '}',
  '',
].join('\n')
writeFileSync(join(here, 'MarketVectors.t.sol'), body.replace(/\n\n}/, '\n}'))
console.log('wrote contracts/test/MarketVectors.t.sol')
