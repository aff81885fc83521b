import { describe, expect, it } from 'vitest'
import {
  checkCreateMarket,
  marketRequestAt,
  type CreateMarketCheck,
  type CreateMarketInput,
} from './create-market-form.ts'
import * as lmsr from './lmsr/lmsr.ts'

const WAD = 10n ** 18n
const CTX = { tokenDecimals: 6, tokenSymbol: 'tUSD', balance: 10_000n * 10n ** 6n }

const DPM: CreateMarketInput = {
  kind: 'dpm',
  question: ' Will it rain tomorrow? ',
  outcomes: ['Yes', ' No '],
  category: 'miscellaneous',
  resolutionCriteria: 'The weather service’s report.',
  liquidity: '10',
  deposit: '250.5',
  fee: '2',
  tradingFor: '3',
  tradingUnit: 'days',
  settlementWithin: '12',
  settlementUnit: 'hours',
}

const errorsOf = (c: CreateMarketCheck) => (c.ok ? {} : c.errors)

describe('checkCreateMarket', () => {
  it('turns a valid DPM form into the factory’s arguments', () => {
    const c = checkCreateMarket(DPM, CTX)
    expect(c).toEqual({
      ok: true,
      draft: {
        kind: 'dpm',
        metadata: {
          question: 'Will it rain tomorrow?',
          outcomes: ['Yes', 'No'],
          category: 'miscellaneous',
          resolutionCriteria: 'The weather service’s report.',
        },
        outcomeCount: 2,
        k: 10n * WAD,
        tradingFee: 2n * 10n ** 16n,
        deposit: 250_500_000n,
        tradingWindow: 3 * 86_400,
        settlementWindow: 12 * 3_600,
      },
    })
    expect(marketRequestAt(c.ok ? c.draft : (null as never), 1_000n)).toEqual({
      outcomeCount: 2n,
      k: 10n * WAD,
      tradingFee: 2n * 10n ** 16n,
      tradingDeadline: 1_000n + 259_200n,
      settlementDeadline: 1_000n + 259_200n + 43_200n,
    })
  })

  it('an LMSR market deposits exactly its maximum loss b·ln n and may have no fee', () => {
    const c = checkCreateMarket(
      { ...DPM, kind: 'lmsr', outcomes: ['A', 'B', 'C'], liquidity: '100', fee: '0', deposit: 'ignored' },
      CTX,
    )
    const pool = lmsr.createLmsrMarket({
      outcomeCount: 3,
      b: 100n * WAD,
      tradingFee: 0n,
      tokenDecimals: 6,
    }).initialPool
    expect(c.ok && c.draft.deposit).toBe(pool)
    expect(c.ok && c.draft.tradingFee).toBe(0n)
  })

  it('names each field that is wrong, with the contracts’ limits', () => {
    const c = checkCreateMarket(
      {
        ...DPM,
        question: '  ',
        outcomes: ['Yes', 'yes'],
        liquidity: '200',
        deposit: '0.5',
        fee: '0.1',
        tradingFor: '1',
        tradingUnit: 'minutes',
        settlementWithin: '2',
        settlementUnit: 'days',
      },
      CTX,
    )
    expect(errorsOf(c)).toEqual({
      question: 'Write the question the market answers.',
      outcomes: 'Two outcomes have the same label: make each one distinct.',
      liquidity: 'k must be between 1 and 100.',
      deposit: 'The deposit must be between 1 and 1,000,000 tUSD.',
      fee: 'The trading fee must be between 0.5 % and 5 %.',
      tradingFor: 'Trading must stay open between 3 min and 365 days.',
      settlementWithin: 'The oracle must get between 1 hour and 1 day to settle after trading closes.',
    })
  })

  it('refuses too few or too many outcomes, empty labels, non-numbers and a deposit above the balance', () => {
    expect(errorsOf(checkCreateMarket({ ...DPM, outcomes: ['Only'] }, CTX)).outcomes).toBe(
      'A market has 2 to 8 outcomes.',
    )
    expect(
      errorsOf(checkCreateMarket({ ...DPM, outcomes: Array.from({ length: 9 }, (_, i) => `O${i}`) }, CTX))
        .outcomes,
    ).toBe('A market has 2 to 8 outcomes.')
    expect(errorsOf(checkCreateMarket({ ...DPM, outcomes: ['Yes', ''] }, CTX)).outcomes).toBe(
      'Give every outcome a label (or remove it).',
    )
    expect(errorsOf(checkCreateMarket({ ...DPM, tradingFor: 'soon' }, CTX)).tradingFor).toBe(
      'Enter the duration as a number, e.g. 3.',
    )
    expect(errorsOf(checkCreateMarket({ ...DPM, fee: 'x' }, CTX)).fee).toBe(
      'Enter the trading fee as a percentage, e.g. 62.5.',
    )
    const poor = checkCreateMarket(DPM, { ...CTX, balance: 100n * 10n ** 6n })
    expect(errorsOf(poor).deposit).toBe(
      'The market takes 251 tUSD from you but your balance is lower: get test tokens in the Wallet view first.',
    )
    expect(poor.ok ? null : poor.deposit).toBe(250_500_000n)
  })
})
