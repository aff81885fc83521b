import {
  ContractFunctionExecutionError,
  ContractFunctionRevertedError,
  encodeErrorResult,
  type Abi,
} from 'viem'
import { describe, expect, it } from 'vitest'
import { errorSentence, revertSentence } from '../error-sentence.ts'
import { delphiFactoryAbi } from '../generated/DelphiFactory.ts'
import { dynamicParimutuelGatewayAbi } from '../generated/DynamicParimutuelGateway.ts'
import { lmsrGatewayAbi } from '../generated/LmsrGateway.ts'

const ABIS = [...dynamicParimutuelGatewayAbi, ...lmsrGatewayAbi, ...delphiFactoryAbi] as Abi
const TOKEN = { symbol: 'tUSD', decimals: 6 }

describe('market error sentences', () => {
  it('has a sentence for every custom error of the gateways and factories', () => {
    const errors = ABIS.filter((i) => i.type === 'error')
    expect(errors.length).toBeGreaterThan(40)
    for (const e of errors) {
      const args = e.inputs.map((i) => (i.type === 'address' ? `0x${'11'.repeat(20)}` : 1n))
      const sentence = revertSentence(e.name, args, { token: TOKEN })
      expect(sentence, e.name).not.toContain('The contract refused the call:')
      expect(sentence, e.name).toMatch(/^[A-Z].*[.)]$/)
    }
  })

  it('says a buy past its slippage bound is a slippage failure, in tokens', () => {
    const data = encodeErrorResult({
      abi: dynamicParimutuelGatewayAbi,
      errorName: 'TokensInExceedsMax',
      args: [12_345_678n, 12_000_000n],
    })
    const cause = new ContractFunctionRevertedError({
      abi: dynamicParimutuelGatewayAbi,
      data,
      functionName: 'buyExactOut',
    })
    const err = new ContractFunctionExecutionError(cause, {
      abi: dynamicParimutuelGatewayAbi,
      functionName: 'buyExactOut',
      args: [],
    })
    expect(errorSentence(err, { token: TOKEN })).toBe(
      'Slippage exceeded: the trade now costs 12.3456 tUSD, more than your maximum of 12 tUSD. The price moved; check the new quote, or allow more slippage, and try again.',
    )
  })

  it('names shares in shares and statuses in words', () => {
    expect(revertSentence('SharesInExceedSupply', [5n * 10n ** 18n, 10n ** 18n])).toBe(
      'You tried to sell 5 shares, more than the 1 shares in the market.',
    )
    expect(revertSentence('WrongMarketStatus', [3n, 0n])).toBe(
      'The market is expired; this needs it to be open.',
    )
  })
})
