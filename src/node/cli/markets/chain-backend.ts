// A MarketBackend over Delphi-compatible gateways on any EVM chain: reads with the app's market reads
// (src/host/chain/markets/market-reads.ts) over one batching HTTP transport, writes with the app's market calls
// (src/host/chain/markets/market-calls.ts) signed by the key given, simulated before signing, and the amounts
// actually moved read back from the gateway's events in the receipt. Which markets exist, how a
// command-line reference finds one and where history comes from is the directory's business: the
// local deployment's factories (local-backend.ts) or Delphi’s REST API and subgraph (delphi-backend.ts).
import {
  BaseError,
  ContractFunctionRevertedError,
  HttpRequestError,
  createPublicClient,
  createWalletClient,
  http,
  parseEventLogs,
  type Abi,
  type Account,
  type Address,
  type PublicClient,
} from 'viem'
import type { ContractCall } from '../../../host/chain/contract-tx.ts'
import {
  errorSentence,
  TransactionRevertedError,
  type ErrorContext,
} from '../../../host/chain/error-sentence.ts'
import { collateralTokenAbi } from '../../../host/chain/generated/CollateralToken.ts'
import { localChain } from '../../../host/chain/local-clients.ts'
import {
  approveMarketCall,
  buyExactOutCall,
  liquidateCall,
  redeemCall,
  sellExactInCall,
} from '../../../host/chain/markets/market-calls.ts'
import { CHAIN_KINDS } from '../../../host/chain/markets/chain-kinds.ts'
import { readCollateral, readEntrySnapshot } from '../../../host/chain/markets/directory-reads.ts'
import { readMarketPosition, readMarketStatics } from '../../../host/chain/markets/market-reads.ts'
import type { DirectoryEntry, MarketDirectory } from '../../../core/markets/market-directory.ts'
import type { MarketPosition, MarketRef } from '../../../core/markets/market-snapshot.ts'
import type { TradeSide } from '../../../core/markets/trade-quote.ts'
import type { BackendMarket, GatewayQuote, MarketBackend, SentTx } from './backend.ts'
import { CommandError } from './command-error.ts'
import { codeForRevert } from './revert-codes.ts'
import { missingKeyError } from './signer.ts'

/** Collateral errors (balance, allowance) bubble up through the gateway: decode them by name too. */
const TOKEN_ERRORS = collateralTokenAbi.filter((item) => item.type === 'error')

const gatewayAbiOf = (m: MarketRef): Abi => [...CHAIN_KINDS[m.kind].gatewayAbi, ...TOKEN_ERRORS]

/** The custom error name of a revert anywhere in `error`'s cause chain, or null. */
function revertName(error: unknown): { name: string; args: readonly unknown[] } | null {
  if (!(error instanceof BaseError)) return null
  const reverted = error.walk((e) => e instanceof ContractFunctionRevertedError)
  if (reverted instanceof ContractFunctionRevertedError && reverted.data?.errorName)
    return { name: reverted.data.errorName, args: reverted.data.args ?? [] }
  return null
}

/** What to do when the RPC does not answer, for the stack's chain. */
export const LOCAL_UNREACHABLE_HINT = 'is the stack running (npm start)? Or pass --rpc <url>.'

/** Any chain failure as a CommandError: reverts by their error's code, an unreachable RPC as such. */
export function chainError(
  error: unknown,
  ctx: ErrorContext,
  unreachableHint: string = LOCAL_UNREACHABLE_HINT,
): CommandError {
  if (error instanceof CommandError) return error
  const sentence = errorSentence(error, ctx)
  const revert = revertName(error)
  if (revert) return new CommandError(codeForRevert(revert.name), sentence)
  if (error instanceof TransactionRevertedError) return new CommandError('reverted', sentence)
  if (error instanceof BaseError && error.walk((e) => e instanceof HttpRequestError))
    return new CommandError(
      'unreachable',
      `Cannot reach the chain at ${ctx.rpcUrl ?? 'its RPC URL'}: ${unreachableHint}`,
    )
  return new CommandError('failed', sentence)
}

export interface ChainBackendOptions {
  network: string
  rpcUrl: string
  /** the chain the RPC must be; null: whatever it is */
  expectedChainId: number | null
  /** the sentence when it is another chain */
  wrongChain: (actual: number) => string
  collateral: Address | { address: Address; symbol: string; decimals: number }
  /** the contract whose `requestToken()` gives test collateral (the token itself on the local chain) */
  faucet: Address | null
  account?: Account
  directory: (client: PublicClient) => MarketDirectory
  unreachableHint?: string
}

export async function connectChainBackend(options: ChainBackendOptions): Promise<MarketBackend> {
  const { rpcUrl, account, unreachableHint } = options
  const ctx: ErrorContext = { rpcUrl }
  const fail = (err: unknown) => chainError(err, ctx, unreachableHint)
  const probe = createPublicClient({ transport: http(rpcUrl) })
  const chainId = await probe.getChainId().catch((err: unknown) => {
    throw fail(err)
  })
  if (options.expectedChainId !== null && chainId !== options.expectedChainId)
    throw new CommandError('wrong-chain', options.wrongChain(chainId))
  const chain = localChain(chainId, rpcUrl)
  const client = createPublicClient({ chain, transport: http(rpcUrl, { batch: true }) }) as PublicClient
  const token = await readCollateral(client, options.collateral).catch((err: unknown) => {
    throw fail(err)
  })
  ctx.token = token
  const directory = options.directory(client)
  const wallet = account ? createWalletClient({ account, chain, transport: http(rpcUrl) }) : null

  const read = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work()
    } catch (err) {
      throw fail(err)
    }
  }
  const head = () => client.getBlockNumber({ cacheTime: 0 })

  async function snapshot(entry: DirectoryEntry, blockNumber: bigint): Promise<BackendMarket> {
    const statics = await readMarketStatics(client, entry.ref)
    const m = await readEntrySnapshot(client, entry, statics, { blockNumber, tokenDecimals: token.decimals })
    return entry.settlement ? { ...m, settlement: entry.settlement } : m
  }
  const snapshots = (entries: DirectoryEntry[], blockNumber: bigint) =>
    Promise.all(entries.map((e) => snapshot(e, blockNumber)))

  function signer(): NonNullable<typeof wallet> {
    if (!wallet) throw missingKeyError('This command')
    return wallet
  }

  /** simulate → sign → send → receipt; the logs of the mined transaction */
  async function send(call: ContractCall) {
    const w = signer()
    try {
      const { request } = await client.simulateContract({
        ...call,
        account: w.account,
        chain,
      } as Parameters<PublicClient['simulateContract']>[0])
      const hash = await w.writeContract(request as Parameters<typeof w.writeContract>[0])
      const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 100 })
      if (receipt.status !== 'success') throw new TransactionRevertedError(hash, receipt.blockNumber)
      return { hash, blockNumber: receipt.blockNumber, logs: receipt.logs }
    } catch (err) {
      throw fail(err)
    }
  }

  const withAbi = (m: MarketRef, call: ContractCall): ContractCall => ({ ...call, abi: gatewayAbiOf(m) })

  function eventOf<T>(m: MarketRef, logs: Parameters<typeof parseEventLogs>[0]['logs'], name: string): T {
    const [event] = parseEventLogs({ abi: gatewayAbiOf(m), logs, eventName: name })
    if (!event) throw new CommandError('failed', `The transaction was mined but emitted no ${name} event.`)
    return (event as unknown as { args: T }).args
  }

  const balanceOf = (owner: Address) =>
    client.readContract({
      address: token.address,
      abi: collateralTokenAbi,
      functionName: 'balanceOf',
      args: [owner],
    })

  return {
    network: options.network,
    chainId,
    token,
    account: account?.address ?? null,

    listMarkets: () =>
      read(async () => {
        const blockNumber = await head()
        return snapshots(await directory.list(blockNumber), blockNumber)
      }),

    market: (text) =>
      read(async () => {
        const blockNumber = await head()
        return snapshot(await directory.find(text, blockNumber), blockNumber)
      }),

    ...(directory.heldBy
      ? {
          marketsHeldBy: (owner: Address) =>
            read(async () => {
              const blockNumber = await head()
              return snapshots(await directory.heldBy!(owner, blockNumber), blockNumber)
            }),
        }
      : {}),

    history: (m) => read(async () => directory.history(m, await head())),

    gatewayQuote: (m, side: TradeSide, outcome, shares): Promise<GatewayQuote> => {
      // Pinned to the snapshot's block: the contract quotes the very state the local maths saw.
      const quoted = CHAIN_KINDS[m.kind].quote(client, m, side, outcome, shares)
      return quoted.then(
        (tokens): GatewayQuote => ({ ok: true, tokens }),
        (err: unknown): GatewayQuote => {
          const revert = revertName(err)
          if (!revert) throw fail(err)
          return { ok: false, errorName: revert.name, args: revert.args, sentence: errorSentence(err, ctx) }
        },
      )
    },

    position: (m, owner): Promise<MarketPosition> =>
      read(async () => readMarketPosition(client, m, owner, token.address, await head())),

    collateralBalance: (owner) => read(() => balanceOf(owner)),

    faucet: async () => {
      if (options.faucet === null)
        throw new CommandError('not-supported', `The ${options.network} network has no faucet.`)
      const owner = signer().account.address
      const before = await read(() => balanceOf(owner))
      const tx = await send({
        address: options.faucet,
        abi: collateralTokenAbi,
        functionName: 'requestToken',
        args: [],
      })
      return {
        hash: tx.hash,
        blockNumber: tx.blockNumber,
        received: (await read(() => balanceOf(owner))) - before,
      }
    },

    approve: async (m, amount): Promise<SentTx> => {
      const { hash, blockNumber } = await send(approveMarketCall(token.address, m.address, amount))
      return { hash, blockNumber }
    },

    buy: async (m, outcome, shares, maxTokensIn) => {
      const tx = await send(withAbi(m, buyExactOutCall(m, outcome, shares, maxTokensIn)))
      const { tokensIn } = eventOf<{ tokensIn: bigint }>(m, tx.logs, 'GatewayBuy')
      return { hash: tx.hash, blockNumber: tx.blockNumber, tokensIn }
    },

    sell: async (m, outcome, shares, minTokensOut) => {
      const tx = await send(withAbi(m, sellExactInCall(m, outcome, shares, minTokensOut)))
      const { tokensOut } = eventOf<{ tokensOut: bigint }>(m, tx.logs, 'GatewaySell')
      return { hash: tx.hash, blockNumber: tx.blockNumber, tokensOut }
    },

    redeem: async (m) => {
      const tx = await send(redeemCall(m))
      const { sharesIn, tokensOut } = eventOf<{ sharesIn: bigint; tokensOut: bigint }>(
        m,
        tx.logs,
        'GatewayRedemption',
      )
      return { hash: tx.hash, blockNumber: tx.blockNumber, sharesIn, tokensOut }
    },

    liquidate: async (m, outcomes) => {
      const tx = await send(liquidateCall(m, outcomes))
      const { sharesIn, totalTokensOut } = eventOf<{ sharesIn: readonly bigint[]; totalTokensOut: bigint }>(
        m,
        tx.logs,
        'GatewayLiquidation',
      )
      return { hash: tx.hash, blockNumber: tx.blockNumber, sharesIn: [...sharesIn], totalTokensOut }
    },
  }
}
