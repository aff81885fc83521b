import {
  ContractFunctionExecutionError,
  ContractFunctionRevertedError,
  HttpRequestError,
  UserRejectedRequestError,
  encodeErrorResult,
  parseAbi,
  type Abi,
} from 'viem'
import { describe, expect, it } from 'vitest'
import { errorSentence, revertSentence, TransactionRevertedError } from './error-sentence.ts'
import { collateralTokenAbi } from './generated/CollateralToken.ts'
import { swarmCoordinatorAbi } from './generated/SwarmCoordinator.ts'

const RPC = 'http://127.0.0.1:8545'
const NOW = Date.UTC(2026, 0, 1, 12, 0, 0)

function reverted(abi: Abi, errorName: string, args: readonly unknown[], decodeWith: Abi = abi) {
  const data = encodeErrorResult({ abi, errorName, args } as Parameters<typeof encodeErrorResult>[0])
  const cause = new ContractFunctionRevertedError({ abi: decodeWith, data, functionName: 'f' })
  return new ContractFunctionExecutionError(cause, { abi: decodeWith, functionName: 'f', args: [] })
}

describe('errorSentence', () => {
  it('has a sentence for every custom error of SwarmCoordinator and CollateralToken', () => {
    const names = [...swarmCoordinatorAbi, ...collateralTokenAbi]
      .filter((i) => i.type === 'error')
      .map((i) => (i as { name: string }).name)
    expect(names.length).toBeGreaterThan(15)
    for (const name of names) {
      const item = [...swarmCoordinatorAbi, ...collateralTokenAbi].find(
        (i) => i.type === 'error' && i.name === name,
      ) as { inputs: readonly { type: string }[] }
      const args = item.inputs.map((i) =>
        i.type === 'string' ? '12D3KooWabc' : i.type === 'address' ? `0x${'11'.repeat(20)}` : 1n,
      )
      const sentence = revertSentence(name, args, { now: NOW })
      expect(sentence, name).not.toContain('The contract refused the call:')
      expect(sentence, name).toMatch(/^[A-Z].*\.$/)
    }
  })

  it('decodes RequestTooOften into when the faucet gives again', () => {
    const next = BigInt(NOW / 1000 + 90)
    const err = reverted(collateralTokenAbi, 'RequestTooOften', [next])
    expect(errorSentence(err, { now: NOW, rpcUrl: RPC, timeZone: 'UTC' })).toBe(
      'You already got test tokens recently; the faucet gives again at 12:01:30 (in 2 min).',
    )
  })

  it('says how long to wait in s, min or h', () => {
    const at = (s: number) =>
      revertSentence('RequestTooOften', [BigInt(NOW / 1000 + s)], { now: NOW, timeZone: 'UTC' })
    expect(at(30)).toMatch(/\(in 30 s\)\.$/)
    expect(at(3600)).toMatch(/at 13:00:00 \(in 60 min\)\.$/)
    expect(at(5 * 3600)).toMatch(/\(in 5\.0 h\)\.$/)
    expect(at(-5)).toMatch(/\(in 0 s\)\.$/)
  })

  it('decodes a revert the calling ABI does not know with the other contract’s ABI', () => {
    const err = reverted(
      collateralTokenAbi,
      'ERC20InsufficientBalance',
      [`0x${'22'.repeat(20)}`, 1_500_000n, 2_000_000n],
      swarmCoordinatorAbi,
    )
    expect(errorSentence(err, { token: { symbol: 'USDC', decimals: 6 } })).toBe(
      'Not enough tokens: this wallet holds 1.5 USDC and needs 2 USDC.',
    )
  })

  it('reads a coordinator error with its arguments', () => {
    const err = reverted(swarmCoordinatorAbi, 'InvalidSignatureLength', [2000n])
    expect(errorSentence(err)).toBe(
      'The registration signature is 2000 bytes long; the coordinator takes 1 to 1024 bytes.',
    )
  })

  it('names an unknown custom error and its arguments', () => {
    const abi = parseAbi(['error MarketClosed(uint256 marketId, string why)'])
    const err = reverted(abi, 'MarketClosed', [7n, 'settled'])
    expect(errorSentence(err)).toBe('The contract refused the call: MarketClosed(7, "settled").')
    const raw = reverted(abi, 'MarketClosed', [7n, 'settled'], swarmCoordinatorAbi)
    expect(errorSentence(raw)).toMatch(
      /^The contract refused the call with an error this app does not know \(0x[0-9a-f]{8}\)\.$/,
    )
  })

  it('says the chain cannot be reached, naming the URL', () => {
    const err = new HttpRequestError({ url: RPC, details: 'fetch failed' })
    expect(errorSentence(err)).toMatch(/^Cannot reach the chain at http:\/\/127\.0\.0\.1:8545: /)
    const bad = new HttpRequestError({ url: RPC, status: 502, details: 'bad gateway' })
    expect(errorSentence(bad)).toMatch(/^Cannot reach the chain at http:\/\/127\.0\.0\.1:8545/)
    expect(errorSentence(new TypeError('Failed to fetch'), { rpcUrl: '/rpc' })).toMatch(
      /^Cannot reach the chain at \/rpc/,
    )
    const notFound = new HttpRequestError({ url: RPC, status: 404 })
    expect(errorSentence(notFound)).toBe(
      'The chain at http://127.0.0.1:8545 answered HTTP 404: check the RPC URL in the wallet settings.',
    )
  })

  it('says when the user declined', () => {
    expect(errorSentence(new UserRejectedRequestError(new Error('no')))).toBe(
      'You declined the request; nothing was sent.',
    )
  })

  it('says when a mined transaction reverted', () => {
    expect(errorSentence(new TransactionRevertedError('0xabc', 12n))).toBe(
      'The transaction was mined in block 12 but reverted; nothing changed.',
    )
  })

  it('passes other errors’ messages through', () => {
    expect(errorSentence(new Error('no wallet connected'))).toBe('no wallet connected')
    expect(errorSentence('weird')).toBe('weird')
  })
})
