// Starts this tab's wallet: reads /deployment.json, builds the wagmi config (wallet-config.ts),
// connects the preferred wallet (the in-tab burner by default), funds the burner on the local chain,
// polls the connected chain (500 ms locally) for balances and registrations, and provides the
// wallet controls (register this peer, faucet, network switch, burner export/import).
import {
  connect,
  disconnect,
  getConnection,
  getConnectorClient,
  getPublicClient,
  switchChain,
  watchConnection,
} from '@wagmi/core'
import type { PrivateKey } from '@libp2p/interface'
import {
  walletActions,
  type Account,
  type Address,
  type Chain,
  type LocalAccount,
  type PublicClient,
  type Transport,
  type WalletClient,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { decryptBurnerBackup, encryptBurnerKey } from './burner-backup.ts'
import { startBlockPoller, type BlockPoller } from '../chain/block-poller.ts'
import { BURNER_CONNECTOR_ID } from './burner-connector.ts'
import { openBurnerKeyStore } from './burner-key-store.ts'
import { rpcUrlProblem, walletNetworks } from '../chain/chains.ts'
import type { WalletKind } from '../chain/confirm-policy.ts'
import { runContractTx, type ContractCall, type ContractTxResult } from '../chain/contract-tx.ts'
import type { ChainDeployment } from '../chain/deployment.ts'
import { errorSentence, type ErrorContext } from '../chain/error-sentence.ts'
import { collateralTokenAbi } from '../chain/generated/CollateralToken.ts'
import { swarmCoordinatorAbi } from '../chain/generated/SwarmCoordinator.ts'
import { loadDeployment } from '../chain/load-deployment.ts'
import { FAUCET_PATH, fundOnLocalChain } from './local-funding.ts'
import { readPeerClaims, readWalletClaims } from '../rewards/peer-claims.ts'
import { signRegistration } from '../rewards/registration-message.ts'
import type { TxState } from '../chain/tx-state.ts'
import { createWalletConfig, type WalletConfig } from './wallet-config.ts'
import { answerConfirmationsOf, requestConfirmation } from '../stores/confirm-store.ts'
import { walletSettingsStore, walletStore } from '../stores/wallet-store.ts'
import { downloadFile } from '../download-file.ts'
import { setWalletControls, type SendOptions } from './wallet-controls.ts'

export interface WalletPeer {
  /** the tab's libp2p key: signs the registration proof */
  privateKey: PrivateKey
  peerId: string
}

/** Tabs of one profile share the burner: an import in one tab reloads the key in the others. */
const CHANNEL = 'tabswarm-wallet'

type TxWallet = WalletClient<Transport, Chain, Account>

const set = walletStore.setState

/** One burner transaction at a time across the profile's tabs (they share the key, so the nonce). */
function burnerLock<T>(send: () => Promise<T>): Promise<T> {
  const locks = (globalThis.navigator as Navigator | undefined)?.locks
  return locks ? (locks.request('tabswarm-burner-send', send) as Promise<T>) : send()
}

export async function startWallet(peer: WalletPeer): Promise<void> {
  const { deployment, note } = await loadDeployment()
  const networks = walletNetworks(deployment)
  set({
    deployment,
    deploymentNote: note,
    networks,
    injectedAvailable: typeof (globalThis as { ethereum?: unknown }).ethereum !== 'undefined',
  })

  // allowing swarm submissions in the settings also answers the one waiting on screen: it would
  // otherwise hold the submission (and every one queued behind it) until the user clicked it away
  walletSettingsStore.subscribe((s, prev) => {
    if (s.autoApproveSwarm && !prev.autoApproveSwarm) answerConfirmationsOf('swarm', true)
  })

  const keys = openBurnerKeyStore()
  let burnerAccount: LocalAccount | null = null
  const loadBurner = async (): Promise<LocalAccount> => {
    burnerAccount ??= privateKeyToAccount((await (await keys).load()).privateKey)
    return burnerAccount
  }

  let wc: WalletConfig = build()
  let unwatch: () => void = () => {}
  let poller: BlockPoller | null = null
  /** address@chain the burner was funded for in this runtime */
  const fundedFor = new Set<string>()

  function build(): WalletConfig {
    return createWalletConfig({
      networks,
      rpcOverrides: walletSettingsStore.getState().rpcOverrides,
      base: location.href,
      burnerAccount: loadBurner,
    })
  }

  const kindOf = (connectorId: string | undefined): WalletKind | null =>
    connectorId === undefined ? null : connectorId === BURNER_CONNECTOR_ID ? 'burner' : 'injected'

  const errorContext = (chainId: number | null): ErrorContext => ({
    rpcUrl: chainId === null ? undefined : wc.rpcUrl(chainId),
    token: deployment?.collateral,
  })

  /** The deployment when the wallet is on its chain. */
  const deploymentOn = (chainId: number | null): ChainDeployment | null =>
    deployment && deployment.chainId === chainId ? deployment : null

  const wantedChainId = (): number => {
    const preferred = walletSettingsStore.getState().chainId
    return networks.some((n) => n.id === preferred) ? preferred! : networks[0]!.id
  }

  function publicClient(chainId: number): PublicClient {
    const client = getPublicClient(wc.config, { chainId }) as PublicClient | undefined
    if (!client) throw new Error(`chain ${chainId} is not one of this app's networks`)
    return client
  }

  // ---- reading the chain

  let readSeq = 0
  async function refresh(blockNumber?: bigint): Promise<void> {
    const conn = getConnection(wc.config)
    if (conn.status !== 'connected') return
    const { address, chainId } = conn
    const seq = ++readSeq
    const client = publicClient(chainId)
    const here = deploymentOn(chainId)
    const collateral = here?.collateral
    const [eth, block, collateralBalance, walletClaims, peerClaims] = await Promise.all([
      client.getBalance({ address }),
      blockNumber ?? client.getBlockNumber({ cacheTime: 0 }),
      collateral
        ? client
            .readContract({
              address: collateral.address,
              abi: collateralTokenAbi,
              functionName: 'balanceOf',
              args: [address],
            })
            .catch(() => null)
        : null,
      here ? readWalletClaims(client, here.coordinator, address) : null,
      here ? readPeerClaims(client, here.coordinator, peer.peerId, address) : null,
    ])
    if (seq !== readSeq) return // a newer read is on its way
    const now = getConnection(wc.config)
    if (now.address !== address || now.chainId !== chainId) return
    set({ ethBalance: eth, blockNumber: block, collateralBalance, walletClaims, peerClaims, error: null })
  }

  /** Reads everything again on each new block of `chainId` (block-poller.ts). */
  const startPolling = (chainId: number): BlockPoller =>
    startBlockPoller({
      blockNumber: () => publicClient(chainId).getBlockNumber({ cacheTime: 0 }),
      intervalMs: () => wc.pollingInterval(chainId),
      onBlock: refresh,
      onError: (err) => set({ error: errorSentence(err, errorContext(chainId)) }),
    })

  async function fundBurner(address: Address, chainId: number): Promise<void> {
    const key = `${address}@${chainId}`
    if (fundedFor.has(key)) return
    // the app server's faucet gives on its own chain only
    if (!deploymentOn(chainId)) return
    fundedFor.add(key)
    try {
      if (await fundOnLocalChain(chainId, address, new URL(FAUCET_PATH, location.href).href)) {
        set({ funded: true })
        poller?.poke()
      }
    } catch (err) {
      fundedFor.delete(key)
      set({
        error: `Could not fund the burner on the local chain: ${errorSentence(err, errorContext(chainId))}`,
      })
    }
  }

  function syncConnection(): void {
    const conn = getConnection(wc.config)
    const kind = kindOf(conn.connector?.id)
    if (conn.status === 'connected') {
      const changed =
        walletStore.getState().address !== conn.address || walletStore.getState().chainId !== conn.chainId
      set({
        status: 'connected',
        kind,
        address: conn.address,
        chainId: conn.chainId,
        rpcUrl: wc.rpcUrl(conn.chainId) ?? null,
        ...(changed
          ? { ethBalance: null, collateralBalance: null, walletClaims: null, peerClaims: null, funded: false }
          : {}),
      })
      if (changed || !poller) {
        poller?.stop()
        poller = startPolling(conn.chainId)
      }
      if (kind === 'burner') void fundBurner(conn.address, conn.chainId)
    } else {
      poller?.stop()
      poller = null
      set({
        status: conn.status === 'disconnected' ? 'disconnected' : 'connecting',
        kind: conn.status === 'disconnected' ? null : kind,
        address: null,
        chainId: null,
        rpcUrl: null,
        ethBalance: null,
        collateralBalance: null,
        walletClaims: null,
        peerClaims: null,
        blockNumber: null,
      })
    }
  }

  function watch(): void {
    unwatch()
    unwatch = watchConnection(wc.config, { onChange: () => syncConnection() })
  }

  // ---- connecting

  const connectorFor = (kind: WalletKind) =>
    wc.config.connectors.find((c) =>
      kind === 'burner' ? c.id === BURNER_CONNECTOR_ID : c.type === 'injected',
    )

  async function connectWallet(kind: WalletKind): Promise<void> {
    const connector = connectorFor(kind)
    if (!connector) throw new Error(`no ${kind} wallet connector`)
    if (kind === 'injected' && !walletStore.getState().injectedAvailable)
      throw new Error(
        'No browser wallet found: install MetaMask (or another injected wallet), or use the burner.',
      )
    const conn = getConnection(wc.config)
    if (conn.status === 'connected') await disconnect(wc.config)
    set({ status: 'connecting', kind, error: null })
    try {
      await connect(wc.config, { connector, chainId: wantedChainId() })
      walletSettingsStore.setState({ preferred: kind })
    } catch (err) {
      set({ error: errorSentence(err, errorContext(wantedChainId())) })
      syncConnection()
      throw err
    }
  }

  async function reconnectBurner(): Promise<void> {
    burnerAccount = null
    if (getConnection(wc.config).connector?.id === BURNER_CONNECTOR_ID) await connectWallet('burner')
  }

  // ---- sending

  async function txWallet(chainId: number): Promise<TxWallet> {
    const client = await getConnectorClient(wc.config, { chainId })
    return client.extend(walletActions) as unknown as TxWallet
  }

  /** The connected wallet on `chainId` (switching to it first when needed). */
  async function ready(chainId: number): Promise<{ wallet: TxWallet; kind: WalletKind; address: Address }> {
    let conn = getConnection(wc.config)
    if (conn.status !== 'connected') throw new Error('Connect a wallet first.')
    if (conn.chainId !== chainId) {
      await switchChain(wc.config, { chainId })
      conn = getConnection(wc.config)
      if (conn.status !== 'connected') throw new Error('The wallet disconnected while switching networks.')
    }
    return {
      wallet: await txWallet(chainId),
      kind: kindOf(conn.connector.id) ?? 'injected',
      address: conn.address,
    }
  }

  async function send(
    chainId: number,
    call: ContractCall,
    options: SendOptions & { prepare?: (address: Address) => Promise<ContractCall> },
  ): Promise<ContractTxResult> {
    let prepared: { wallet: TxWallet; kind: WalletKind; address: Address }
    try {
      prepared = await ready(chainId)
    } catch (err) {
      const error = errorSentence(err, errorContext(chainId))
      options.onState?.({ phase: 'failed', error })
      return { ok: false, error }
    }
    const result = await runContractTx({
      wallet: prepared.wallet,
      publicClient: publicClient(chainId),
      call,
      kind: options.kind,
      walletKind: prepared.kind,
      autoApproveSwarm: walletSettingsStore.getState().autoApproveSwarm,
      confirm: () => requestConfirmation({ ...options.confirmation, kind: options.kind }),
      prepare: options.prepare ? () => options.prepare!(prepared.address) : undefined,
      errorContext: errorContext(chainId),
      onState: (s) => options.onState?.(s),
      exclusive: prepared.kind === 'burner' ? burnerLock : undefined,
    })
    poller?.poke()
    return result
  }

  const needDeployment = (): ChainDeployment => {
    if (!deployment) throw new Error(walletStore.getState().deploymentNote ?? 'No chain deployment is known.')
    return deployment
  }

  // ---- other tabs of the profile

  const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(CHANNEL)
  if (channel)
    channel.onmessage = (e: MessageEvent<unknown>) => {
      if (e.data === 'burner-changed') void reconnectBurner().catch(() => {})
    }

  setWalletControls({
    async connect(kind) {
      await connectWallet(kind)
    },
    async disconnect() {
      walletSettingsStore.setState({ preferred: 'none' })
      await disconnect(wc.config)
      syncConnection()
    },
    async switchNetwork(chainId) {
      walletSettingsStore.setState({ chainId })
      set({ error: null })
      if (getConnection(wc.config).status !== 'connected') return
      try {
        await switchChain(wc.config, { chainId })
      } catch (err) {
        set({ error: errorSentence(err, errorContext(chainId)) })
      }
    },
    async registerPeer() {
      const d = needDeployment()
      const onState = (registration: TxState) => set({ registration })
      await send(
        d.chainId,
        { address: d.coordinator, abi: swarmCoordinatorAbi, functionName: 'registerPeer' },
        {
          kind: 'direct',
          confirmation: {
            title: 'Register this peer',
            details: [
              { label: 'Peer', value: peer.peerId },
              { label: 'Contract', value: d.coordinator },
            ],
          },
          onState,
          prepare: async (wallet) => {
            const proof = await signRegistration(peer.privateKey, {
              chainId: d.chainId,
              coordinator: d.coordinator,
              wallet,
            })
            return {
              address: d.coordinator,
              abi: swarmCoordinatorAbi,
              functionName: 'registerPeer',
              args: [proof.peerId, proof.publicKey, proof.signature],
            }
          },
        },
      )
    },
    async requestTokens() {
      const d = needDeployment()
      if (!d.collateral) throw new Error('This chain has no collateral token deployed.')
      await send(
        d.chainId,
        { address: d.collateral.address, abi: collateralTokenAbi, functionName: 'requestToken' },
        {
          kind: 'direct',
          confirmation: { title: `Get test ${d.collateral.symbol}`, details: [] },
          onState: (faucet) => set({ faucet }),
        },
      )
    },
    async exportBurner(passphrase) {
      const record = await (await keys).load()
      const backup = await encryptBurnerKey(record.privateKey, passphrase)
      downloadFile(
        `tabswarm-burner-${backup.address.slice(2, 8).toLowerCase()}.json`,
        JSON.stringify(backup, null, 2) + '\n',
      )
    },
    async importBurner(file, passphrase) {
      const { privateKey } = await decryptBurnerBackup(await file.text(), passphrase)
      await (await keys).replace(privateKey)
      channel?.postMessage('burner-changed')
      await reconnectBurner()
    },
    async setRpcOverride(chainId, url) {
      const problem = rpcUrlProblem(url)
      if (problem) throw new Error(problem)
      const overrides = { ...walletSettingsStore.getState().rpcOverrides }
      if (url.trim() === '') delete overrides[chainId]
      else overrides[chainId] = url.trim()
      walletSettingsStore.setState({ rpcOverrides: overrides })
      // A new RPC means new clients: rebuild the config and connect the same wallet again.
      const kind = kindOf(getConnection(wc.config).connector?.id)
      poller?.stop()
      poller = null
      unwatch()
      wc = build()
      watch()
      syncConnection()
      fundedFor.clear()
      if (kind) await connectWallet(kind).catch(() => {})
    },
    setAutoApproveSwarm(allow) {
      walletSettingsStore.setState({ autoApproveSwarm: allow })
    },
    async send(call, options) {
      const chainId = options.chainId ?? getConnection(wc.config).chainId ?? wantedChainId()
      return send(chainId, call, options)
    },
  })

  watch()
  const preferred = walletSettingsStore.getState().preferred
  // Without a local chain nothing connects by itself: a remote chain is the user's choice.
  const auto =
    preferred === 'injected'
      ? walletStore.getState().injectedAvailable
      : preferred === 'burner' && (deployment !== null || walletSettingsStore.getState().chainId !== null)
  if (auto && preferred !== 'none') await connectWallet(preferred).catch(() => {})
}
