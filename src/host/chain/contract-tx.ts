// Runs one contract transaction the way every wallet action in the app does: ask for confirmation
// when the policy says so, simulate (a revert is reported before anything is signed, decoded into a
// sentence), sign and send, wait for the receipt. Each step is reported as a TxState.
import type {
  Abi,
  Account,
  Address,
  Chain,
  PublicClient,
  TransactionReceipt,
  Transport,
  WalletClient,
} from 'viem'
import { needsConfirmation, type TxKind, type WalletKind } from './confirm-policy.ts'
import { errorSentence, TransactionRevertedError, type ErrorContext } from './error-sentence.ts'
import { TX_IDLE, txReducer, type TxEvent, type TxState } from './tx-state.ts'

export interface ContractCall {
  address: Address
  abi: Abi
  functionName: string
  args?: readonly unknown[]
}

export interface ContractTxOptions {
  wallet: WalletClient<Transport, Chain, Account>
  publicClient: PublicClient
  call: ContractCall
  kind: TxKind
  walletKind: WalletKind
  autoApproveSwarm: boolean
  /** asks the user (the app's confirm dialog); true = go ahead */
  confirm: () => Promise<boolean>
  /** runs after the confirmation, before the simulation (e.g. signing a proof); its result is the call */
  prepare?: () => Promise<ContractCall>
  errorContext?: ErrorContext
  onState: (state: TxState) => void
  /**
   * Runs simulate + sign + send under a lock (the burner is shared by the profile's tabs, and two
   * tabs sending at once would pick the same nonce); released once the node has the transaction.
   */
  exclusive?: <T>(send: () => Promise<T>) => Promise<T>
}

/** The user said no in the app's confirmation dialog. */
export class TransactionDeclinedError extends Error {
  override name = 'TransactionDeclinedError'
  constructor() {
    super('You declined the transaction; nothing was sent.')
  }
}

/** A failure carries what was thrown as `cause`, for callers that act on its kind (the reward queue). */
export type ContractTxResult =
  { ok: true; receipt: TransactionReceipt } | { ok: false; error: string; cause?: unknown }

/**
 * An estimate is exact for the state it ran on; a transaction that lands first (another peer's
 * registration growing the same arrays) can make ours cost more, and an exact limit then runs out of
 * gas. A quarter more covers it; unused gas is not charged.
 */
export const withGasHeadroom = (estimate: bigint): bigint => estimate + estimate / 4n

export async function runContractTx(options: ContractTxOptions): Promise<ContractTxResult> {
  let state: TxState = TX_IDLE
  const step = (event: TxEvent) => {
    state = txReducer(state, event)
    options.onState(state)
  }
  const fail = (error: unknown): ContractTxResult => {
    const sentence = errorSentence(error, options.errorContext)
    step({ type: 'fail', error: sentence })
    return { ok: false, error: sentence, cause: error }
  }
  try {
    if (needsConfirmation(options.walletKind, options.kind, options.autoApproveSwarm)) {
      step({ type: 'confirm' })
      if (!(await options.confirm())) return fail(new TransactionDeclinedError())
    }
    step({ type: 'sign' })
    const call = options.prepare ? await options.prepare() : options.call
    const send = async () => {
      const { request } = await options.publicClient.simulateContract({
        ...call,
        account: options.wallet.account,
        chain: options.wallet.chain,
      } as Parameters<PublicClient['simulateContract']>[0])
      const gas = await options.publicClient.estimateContractGas(
        request as Parameters<PublicClient['estimateContractGas']>[0],
      )
      return options.wallet.writeContract({
        ...(request as Parameters<typeof options.wallet.writeContract>[0]),
        gas: withGasHeadroom(gas),
      })
    }
    const hash = await (options.exclusive ? options.exclusive(send) : send())
    step({ type: 'sent', hash })
    const receipt = await options.publicClient.waitForTransactionReceipt({ hash })
    if (receipt.status !== 'success') return fail(new TransactionRevertedError(hash, receipt.blockNumber))
    step({ type: 'mined', blockNumber: receipt.blockNumber })
    return { ok: true, receipt }
  } catch (err) {
    return fail(err)
  }
}
