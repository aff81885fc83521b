// The MarketBackend of our own contracts on an EVM chain (the local anvil of `npm start`): reads with
// the app's market reads (src/chain/market-reads.ts) over one batching HTTP transport, writes with the
// app's market calls (src/chain/market-calls.ts), signed by the key given, simulated before signing,
// and the amounts actually moved read back from the gateway's events in the receipt.
import {
  BaseError,
  ContractFunctionRevertedError,
  HttpRequestError,
  createPublicClient,
  createWalletClient,
  getAddress,
  http,
  isAddress,
  parseEventLogs,
  type Abi,
  type Account,
  type Address,
  type PublicClient,
} from 'viem'
import type { ContractCall } from '../../chain/contract-tx.ts'
import { errorSentence, TransactionRevertedError, type ErrorContext } from '../../chain/error-sentence.ts'
import { collateralTokenAbi } from '../../chain/generated/CollateralToken.ts'
import { dynamicParimutuelGatewayAbi } from '../../chain/generated/DynamicParimutuelGateway.ts'
import { lmsrGatewayAbi } from '../../chain/generated/LmsrGateway.ts'
import { localChain } from '../../chain/local-clients.ts'
import { readMarketEvents } from '../../chain/market-events.ts'
import {
  approveMarketCall,
  buyExactOutCall,
  liquidateCall,
  redeemCall,
  sellExactInCall,
} from '../../chain/market-calls.ts'
import {
  listMarkets,
  readMarketPosition,
  readMarketSnapshot,
  readMarketStatics,
} from '../../chain/market-reads.ts'
import type { MarketPosition, MarketRef, MarketSnapshot } from '../../markets/market-snapshot.ts'
import type { TradeSide } from '../../markets/trade-quote.ts'
import type { GatewayQuote, MarketBackend, SentTx } from './backend.ts'
import { CommandError } from './command-error.ts'
import type { MarketsEndpoint } from './endpoint.ts'
import { codeForRevert } from './revert-codes.ts'
import { missingKeyError } from './signer.ts'

/** Collateral errors (balance, allowance) bubble up through the gateway: decode them by name too. */
const TOKEN_ERRORS = collateralTokenAbi.filter((item) => item.type === 'error')

const gatewayAbiOf = (m: MarketRef): Abi =>
  [...(m.kind === 'dpm' ? dynamicParimutuelGatewayAbi : lmsrGatewayAbi), ...TOKEN_ERRORS] as Abi

/** The custom error name of a revert anywhere in `error`'s cause chain, or null. */
function revertName(error: unknown): { name: string; args: readonly unknown[] } | null {
  if (!(error instanceof BaseError)) return null
  const reverted = error.walk((e) => e instanceof ContractFunctionRevertedError)
  if (reverted instanceof ContractFunctionRevertedError && reverted.data?.errorName)
    return { name: reverted.data.errorName, args: reverted.data.args ?? [] }
  return null
}

/** Any chain failure as a CommandError: reverts by their error's code, an unreachable RPC as such. */
export function chainError(error: unknown, ctx: ErrorContext): CommandError {
  if (error instanceof CommandError) return error
  const sentence = errorSentence(error, ctx)
  const revert = revertName(error)
  if (revert) return new CommandError(codeForRevert(revert.name), sentence)
  if (error instanceof TransactionRevertedError) return new CommandError('reverted', sentence)
  if (error instanceof BaseError && error.walk((e) => e instanceof HttpRequestError))
    return new CommandError(
      'unreachable',
      `Cannot reach the chain at ${ctx.rpcUrl ?? 'its RPC URL'}: is the stack running (npm start)? Or pass --rpc <url>.`,
    )
  return new CommandError('failed', sentence)
}

/** `dpm:<n>` / `lmsr:<n>`: the n-th market of that factory (0-based, as `list` shows it). */
const INDEX_REF = /^(dpm|lmsr):(\d+)$/i

export interface LocalBackendOptions {
  endpoint: MarketsEndpoint
  /** signs the write actions; none: reads only */
  account?: Account
}

export async function connectLocalBackend(options: LocalBackendOptions): Promise<MarketBackend> {
  const { endpoint, account } = options
  const probe = createPublicClient({ transport: http(endpoint.rpcUrl) })
  const ctx: ErrorContext = { rpcUrl: endpoint.rpcUrl }
  const chainId = await probe.getChainId().catch((err: unknown) => {
    throw chainError(err, ctx)
  })
  if (endpoint.chainId !== null && chainId !== endpoint.chainId)
    throw new CommandError(
      'wrong-chain',
      `Wrong network: ${endpoint.rpcUrl} is chain ${chainId}, but ${endpoint.source} describes chain ${endpoint.chainId}. Point --rpc at the deployment’s chain.`,
    )
  const chain = localChain(chainId, endpoint.rpcUrl)
  const client = createPublicClient({
    chain,
    transport: http(endpoint.rpcUrl, { batch: true }),
  }) as PublicClient
  const token = await readToken(client, endpoint.collateral)
  ctx.token = token
  const markets = endpoint.markets
  const wallet = account ? createWalletClient({ account, chain, transport: http(endpoint.rpcUrl) }) : null

  const read = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work()
    } catch (err) {
      throw chainError(err, ctx)
    }
  }

  async function snapshot(
    ref: MarketRef,
    blockNumber: bigint,
    createdBlocks?: ReadonlyMap<string, bigint>,
  ): Promise<MarketSnapshot> {
    const statics = await readMarketStatics(client, ref)
    return readMarketSnapshot(
      client,
      { ...ref, ...statics },
      { blockNumber, tokenDecimals: token.decimals, createdBlocks },
    )
  }

  async function findRef(text: string, blockNumber: bigint): Promise<MarketRef> {
    const refs = await listMarkets(client, markets, blockNumber)
    const byIndex = INDEX_REF.exec(text.trim())
    const found = byIndex
      ? refs.find((r) => r.kind === byIndex[1]!.toLowerCase() && r.index === Number(byIndex[2]))
      : isAddress(text.trim(), { strict: false })
        ? refs.find((r) => r.address === getAddress(text.trim()))
        : undefined
    if (found) return found
    if (!byIndex && !isAddress(text.trim(), { strict: false }))
      throw new CommandError(
        'unknown-market',
        `“${text}” is not a market: give its address, or dpm:<n> / lmsr:<n> as the list command shows.`,
      )
    throw new CommandError(
      'unknown-market',
      `There is no market ${text} on this deployment (${refs.length} markets): run the list command to see them.`,
    )
  }

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
      throw chainError(err, ctx)
    }
  }

  const withAbi = (m: MarketRef, call: ContractCall): ContractCall => ({ ...call, abi: gatewayAbiOf(m) })

  function eventOf<T>(m: MarketRef, logs: Parameters<typeof parseEventLogs>[0]['logs'], name: string): T {
    const [event] = parseEventLogs({ abi: gatewayAbiOf(m), logs, eventName: name })
    if (!event) throw new CommandError('failed', `The transaction was mined but emitted no ${name} event.`)
    return (event as unknown as { args: T }).args
  }

  return {
    network: 'local',
    chainId,
    token,
    account: account?.address ?? null,

    listMarkets: () =>
      read(async () => {
        const blockNumber = await client.getBlockNumber({ cacheTime: 0 })
        const [refs, events] = await Promise.all([
          listMarkets(client, markets, blockNumber),
          readMarketEvents(client, markets, endpoint.fromBlock, blockNumber),
        ])
        // creation blocks give the list its "newest first" order across the two factories
        const created = new Map(events.created.map((c) => [c.market.toLowerCase(), c.blockNumber]))
        return Promise.all(refs.map((r) => snapshot(r, blockNumber, created)))
      }),

    market: (text) =>
      read(async () => {
        const blockNumber = await client.getBlockNumber({ cacheTime: 0 })
        return snapshot(await findRef(text, blockNumber), blockNumber)
      }),

    gatewayQuote: (m, side: TradeSide, outcome, shares): Promise<GatewayQuote> => {
      const functionName = side === 'buy' ? 'quoteBuyExactOut' : 'quoteSellExactIn'
      const args = [m.address, BigInt(outcome), shares] as const
      // Pinned to the snapshot's block: the contract quotes the very state the local maths saw.
      const quoted =
        m.kind === 'dpm'
          ? client.readContract({
              address: m.gateway,
              abi: dynamicParimutuelGatewayAbi,
              functionName,
              args,
              blockNumber: m.blockNumber,
            })
          : client
              .readContract({
                address: m.gateway,
                abi: lmsrGatewayAbi,
                functionName,
                args,
                blockNumber: m.blockNumber,
              })
              .then(([tokens]) => tokens)
      return quoted.then(
        (tokens): GatewayQuote => ({ ok: true, tokens }),
        (err: unknown): GatewayQuote => {
          const revert = revertName(err)
          if (!revert) throw chainError(err, ctx)
          return { ok: false, errorName: revert.name, args: revert.args, sentence: errorSentence(err, ctx) }
        },
      )
    },

    position: (m, owner): Promise<MarketPosition> =>
      read(async () =>
        readMarketPosition(client, m, owner, token.address, await client.getBlockNumber({ cacheTime: 0 })),
      ),

    collateralBalance: (owner) =>
      read(() =>
        client.readContract({
          address: token.address,
          abi: collateralTokenAbi,
          functionName: 'balanceOf',
          args: [owner],
        }),
      ),

    faucet: async () => {
      const owner = signer().account.address
      const balance = () =>
        client.readContract({
          address: token.address,
          abi: collateralTokenAbi,
          functionName: 'balanceOf',
          args: [owner],
        })
      const before = await balance()
      const tx = await send({
        address: token.address,
        abi: collateralTokenAbi,
        functionName: 'requestToken',
        args: [],
      })
      return { hash: tx.hash, blockNumber: tx.blockNumber, received: (await balance()) - before }
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

async function readToken(
  client: PublicClient,
  collateral: MarketsEndpoint['collateral'],
): Promise<{ address: Address; symbol: string; decimals: number }> {
  if (typeof collateral !== 'string') return collateral
  const token = { address: collateral, abi: collateralTokenAbi } as const
  const [symbol, decimals] = await Promise.all([
    client.readContract({ ...token, functionName: 'symbol' }),
    client.readContract({ ...token, functionName: 'decimals' }),
  ]).catch((err: unknown) => {
    throw chainError(err, { rpcUrl: client.transport.url as string | undefined })
  })
  return { address: collateral, symbol, decimals }
}
