import { describe, expect, it } from 'vitest'
import { HttpRequestError } from 'viem'
import { DelphiApiKeyError, DelphiOfflineError, DelphiResponseError } from '../delphi/errors.ts'
import { DELPHI_NETWORKS } from '../delphi/networks.ts'
import type { MarketHistory } from '../../core/markets/market-history.ts'
import { feedFailure, historyTrades } from './delphi-feed.ts'

const testnet = DELPHI_NETWORKS.testnet
const MARKET = '0x00000000000000000000000000000000000d1e11'
const TRADER = '0x000000000000000000000000000000000000beef'
const at = (blockNumber: bigint, hash: `0x${string}`) => ({ blockNumber, timestamp: null, hash })

describe('feedFailure', () => {
  it('titles each of Delphi’s failures and keeps its sentence', () => {
    expect(feedFailure(new DelphiApiKeyError('refused.'), testnet, null)).toEqual({
      errorTitle: 'API key refused',
      error: 'refused.',
    })
    expect(feedFailure(new DelphiOfflineError('gone.'), testnet, null).errorTitle).toBe(
      'Delphi’s testnet is offline',
    )
    expect(feedFailure(new DelphiResponseError('bad.'), testnet, null).errorTitle).toBe(
      'Delphi’s testnet answered something unexpected',
    )
  })

  it('words a chain failure as the wallet does, naming the RPC', () => {
    const err = new HttpRequestError({ url: 'http://127.0.0.1:9', details: 'fetch failed' })
    const f = feedFailure(err, testnet, null)
    expect(f.errorTitle).toBe('Delphi’s testnet’s chain cannot be read')
    expect(f.error).toMatch(
      /^Cannot reach the chain at http:\/\/127\.0\.0\.1:9: .*RPC URL in the wallet settings\.$/,
    )
  })
})

describe('historyTrades', () => {
  it('keeps the buys and sells, in order, as trade events of the market', () => {
    const history: MarketHistory = {
      entries: [
        { ...at(5n, '0x01'), kind: 'buy', trader: TRADER, outcome: 1, shares: 10n, tokens: 7n },
        { ...at(6n, '0x02'), kind: 'sell', trader: TRADER, outcome: 1, shares: 4n, tokens: 3n },
        { ...at(9n, '0x03'), kind: 'settled', winningOutcome: 1 },
        { ...at(10n, '0x04'), kind: 'redeem', trader: TRADER, shares: 6n, tokens: 9n },
      ],
      indexedBlock: 10n,
      chainHead: 10n,
      warning: null,
    }
    expect(historyTrades(MARKET, history)).toEqual([
      {
        market: MARKET,
        side: 'buy',
        trader: TRADER,
        outcome: 1,
        shares: 10n,
        tokens: 7n,
        blockNumber: 5n,
        logIndex: 0,
        hash: '0x01',
      },
      {
        market: MARKET,
        side: 'sell',
        trader: TRADER,
        outcome: 1,
        shares: 4n,
        tokens: 3n,
        blockNumber: 6n,
        logIndex: 1,
        hash: '0x02',
      },
    ])
  })
})
