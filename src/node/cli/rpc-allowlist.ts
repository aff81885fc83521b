// Which JSON-RPC calls the app server's /rpc passes on to anvil: the standard reads viem and wagmi make
// (and an injected wallet such as MetaMask makes for the chain the page added) and
// eth_sendRawTransaction, whose signature the sender made. Nothing that writes with a key anvil
// holds (eth_sendTransaction from its unlocked accounts, eth_sign…), no cheat code (anvil_*, evm_*),
// no server-side state (filters). Pure: the proxy (rpc-proxy.ts) does the IO.

export const FORWARDED_RPC_METHODS: ReadonlySet<string> = new Set([
  'eth_chainId',
  'eth_blockNumber',
  'eth_call',
  'eth_estimateGas',
  // viem tries it before estimating gas and fees one by one; it fills in a transaction, signs nothing
  'eth_fillTransaction',
  'eth_createAccessList',
  'eth_getBalance',
  'eth_getCode',
  'eth_getStorageAt',
  'eth_getTransactionCount',
  'eth_getLogs',
  'eth_getTransactionReceipt',
  'eth_getTransactionByHash',
  'eth_getBlockByNumber',
  'eth_getBlockByHash',
  'eth_gasPrice',
  'eth_maxPriorityFeePerGas',
  'eth_feeHistory',
  'eth_blobBaseFee',
  'eth_sendRawTransaction',
  'net_version',
  'web3_clientVersion',
])

export interface RpcErrorReply {
  jsonrpc: '2.0'
  id: unknown
  error: { code: number; message: string }
}

export interface ScreenedRpc {
  /** the body was a batch (an array): the answer is one too */
  batch: boolean
  /** the calls to pass on, in order */
  forward: unknown[]
  /** the answers to the calls refused here */
  refused: RpcErrorReply[]
}

const reply = (id: unknown, code: number, message: string): RpcErrorReply => ({
  jsonrpc: '2.0',
  id: id ?? null,
  error: { code, message },
})

/** The refusal of one call, or null when it may pass. */
function refusalOf(call: unknown): RpcErrorReply | null {
  if (typeof call !== 'object' || call === null || Array.isArray(call))
    return reply(null, -32600, 'a JSON-RPC request is an object with a method')
  const { id, method } = call as { id?: unknown; method?: unknown }
  if (typeof method !== 'string') return reply(id, -32600, 'a JSON-RPC request is an object with a method')
  if (FORWARDED_RPC_METHODS.has(method)) return null
  // -32601 (method not found): viem then falls back as it would on a node without the method
  return reply(
    id,
    -32601,
    `this app server's /rpc does not forward ${method}: only standard reads and eth_sendRawTransaction`,
  )
}

/** Splits a parsed JSON-RPC body into what may reach the chain and the answers to the rest. */
export function screenRpc(body: unknown): ScreenedRpc {
  const batch = Array.isArray(body)
  const calls: unknown[] = batch ? body : [body]
  const screened: ScreenedRpc = { batch, forward: [], refused: [] }
  for (const call of calls) {
    const refusal = refusalOf(call)
    if (refusal) screened.refused.push(refusal)
    else screened.forward.push(call)
  }
  return screened
}
