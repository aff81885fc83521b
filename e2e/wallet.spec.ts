// The Wallet view against a local chain: a fresh tab gets a funded burner wallet and registers its
// peer in one click; a second tab of the same browser shares the wallet and registers its own peer;
// forged, replayed and wrong-chain proofs sent from Node land on-chain but show as unverified; a
// reverted faucet call reads as a sentence and leaves the panel usable; registrations survive a
// restart of the stack; the burner key round-trips through its encrypted export.
import '../src/polyfills/promise-with-resolvers.ts'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test'
import { bytesToHex, type Address, type Hex } from 'viem'
import { swarmCoordinatorAbi } from '../src/host/chain/generated/SwarmCoordinator.ts'
import { anvilAccount, localClients } from '../src/host/chain/local-clients.ts'
import { signRegistration, verifyRegistration } from '../src/host/rewards/registration-message.ts'
import { startStack, type Stack, type StackOptions } from '../src/node/cli/stack.ts'
import { parseIdentityFile } from '../src/host/identity/backup.ts'
import { launchBrowser } from './browser.ts'
import { fakeWalletLog, installFakeInjectedWallet } from './fake-injected-wallet.ts'
import { openTab } from './tabs.ts'
import {
  burnerReady,
  chainFromNode,
  peerClaimRows,
  recordPhases,
  walletPeerRows,
  walletPeersOnChain,
} from './wallet-actions.ts'
import { viewLink } from './tab-actions.ts'

/** the burner card's two forms (each names its own Passphrase field) */
const exportForm = (page: Page) => page.getByRole('form', { name: 'Export the burner key' })
const importForm = (page: Page) => page.getByRole('form', { name: 'Import a burner key' })

let tmp: string
let options: StackOptions
let stack: Stack
let browser: Browser
let context: BrowserContext
let tab1: Page
let tab2: Page
let id1: string
let id2: string
let burner: Address

test.describe.configure({ mode: 'serial' })

test.beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'tabswarm-wallet-'))
  options = {
    relayPort: 19620,
    relayHttpPort: 19621,
    appPort: 19623,
    chain: { port: 19622, stateFile: join(tmp, 'anvil-state.json') },
  }
  stack = await startStack(options)
  browser = await launchBrowser()
  context = await browser.newContext({ acceptDownloads: true })
})

test.afterAll(async () => {
  await browser?.close()
  await stack?.stop()
  if (tmp) rmSync(tmp, { recursive: true, force: true })
})

const deployment = () => {
  if (!stack.deployment) throw new Error('the stack runs no chain')
  return stack.deployment
}

const shot = (page: Page, name: string) =>
  page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true })

test('a fresh tab gets a funded burner and registers its peer in one click', async () => {
  tab1 = await openTab(context, `${stack.url}#/wallet`)
  burner = await burnerReady(tab1)
  id1 = await tab1
    .getByTestId('header-self-id')
    .getAttribute('title')
    .then((t) => t!)
  expect(id1).toMatch(/^12D3KooW/)
  await expect(tab1.getByTestId('self-registration')).toHaveAttribute('data-verified', 'none')

  const phases = await recordPhases(tab1, 'registration-status')
  await tab1.getByRole('button', { name: /^Register (this peer|again)$/ }).click()
  const status = tab1.getByTestId('registration-status')
  await expect(status).toHaveAttribute('data-phase', 'confirmed')
  await expect(status).toContainText(/Confirmed in block \d+/)
  const hash = await tab1.getByTestId('registration-status-hash').getAttribute('title')
  expect(hash).toMatch(/^0x[0-9a-f]{64}$/)
  // every step was on screen: signing, pending with the hash, confirmed with the block
  expect(await phases()).toEqual(['idle', 'signing', 'pending', 'confirmed'])

  // on-chain, read from Node: the claim is there and its proof holds
  const chain = await chainFromNode(stack)
  const receipt = await chain.client.getTransactionReceipt({ hash: hash as Hex })
  await expect(tab1.getByTestId('registration-status-block')).toHaveText(String(receipt.blockNumber))
  const claims = await walletPeersOnChain(chain, deployment().coordinator, burner)
  expect(claims.map((c) => c.peerId)).toEqual([id1])
  expect(
    await verifyRegistration({
      ...claims[0]!,
      chainId: chain.chainId,
      coordinator: deployment().coordinator,
    }),
  ).toBe(true)

  // in the UI: verified
  await expect(tab1.getByTestId('self-registration')).toHaveAttribute('data-verified', 'true')
  await expect.poll(() => walletPeerRows(tab1)).toEqual([{ peerId: id1, wallet: burner, verified: true }])
  await shot(tab1, 'wallet-registered')
})

test('a second tab of the same browser shares the burner and registers its own peer', async () => {
  tab2 = await openTab(context, `${stack.url}#/wallet`)
  expect(await burnerReady(tab2)).toBe(burner)
  id2 = await tab2
    .getByTestId('header-self-id')
    .getAttribute('title')
    .then((t) => t!)
  expect(id2).not.toBe(id1)
  await tab2.getByRole('button', { name: /^Register (this peer|again)$/ }).click()
  await expect(tab2.getByTestId('registration-status')).toHaveAttribute('data-phase', 'confirmed')

  const both = [id1, id2].sort()
  for (const tab of [tab1, tab2]) {
    await expect
      .poll(async () => (await walletPeerRows(tab)).map((r) => `${r.peerId}:${r.verified}`).sort())
      .toEqual(both.map((id) => `${id}:true`))
  }
  const chain = await chainFromNode(stack)
  expect(
    (await walletPeersOnChain(chain, deployment().coordinator, burner)).map((c) => c.peerId).sort(),
  ).toEqual(both)
})

test('forged, replayed and wrong-chain proofs land on-chain but are shown unverified', async () => {
  const { coordinator } = deployment()
  const chain = await chainFromNode(stack)
  // tab 1's real peer key, from its identity backup, to sign a proof for another chain
  await viewLink(tab1, 'Swarm').click()
  const [download] = await Promise.all([
    tab1.waitForEvent('download'),
    tab1.getByRole('button', { name: 'Backup identity' }).click(),
  ])
  const { privateKey } = parseIdentityFile(readFileSync((await download.path())!))
  await viewLink(tab1, 'Wallet').click()

  const [real] = await walletPeersOnChain(chain, coordinator, burner).then((cs) =>
    cs.filter((c) => c.peerId === id1),
  )
  const forger = anvilAccount(1)
  const replayer = anvilAccount(2)
  const crossChain = anvilAccount(3)
  const wrongChainProof = await signRegistration(privateKey, {
    chainId: 685685,
    coordinator,
    wallet: crossChain.address,
  })
  const sends: [typeof forger, readonly [string, Hex, Hex]][] = [
    [forger, [id1, real!.publicKey, bytesToHex(crypto.getRandomValues(new Uint8Array(64)))]],
    [replayer, [id1, real!.publicKey, real!.signature]],
    [crossChain, [id1, wrongChainProof.publicKey, wrongChainProof.signature]],
  ]
  for (const [account, args] of sends) {
    const { wallet, client } = await localClients(chain.rpcUrl, account)
    const hash = await wallet.writeContract({
      address: coordinator,
      abi: swarmCoordinatorAbi,
      functionName: 'registerPeer',
      args,
    })
    expect((await client.waitForTransactionReceipt({ hash, pollingInterval: 50 })).status).toBe('success')
  }
  // Node agrees with the UI: each of them lands as a claim whose proof does not hold
  const onChain = await chain.client.readContract({
    address: coordinator,
    abi: swarmCoordinatorAbi,
    functionName: 'getPeerClaims',
    args: [id1, 0n, 100n],
  })
  expect(onChain).toHaveLength(4)
  for (const c of onChain)
    expect(await verifyRegistration({ ...c, chainId: chain.chainId, coordinator })).toBe(c.wallet === burner)

  const expected = [
    { peerId: id1, wallet: burner, verified: true },
    { peerId: id1, wallet: forger.address, verified: false },
    { peerId: id1, wallet: replayer.address, verified: false },
    { peerId: id1, wallet: crossChain.address, verified: false },
  ]
  await expect.poll(() => peerClaimRows(tab1), { timeout: 10_000 }).toEqual(expected)
  await expect(tab1.getByTestId('peer-claim-row').getByText('unverified')).toHaveCount(3)
  // each says why: all three carry the real key, so it is their signature that does not hold here
  const problems = tab1.getByTestId('peer-claim-row').getByTestId('claim-problem')
  await expect(problems).toHaveCount(3)
  for (const problem of await problems.all())
    await expect(problem).toContainText(`does not hold for this wallet, chain ${chain.chainId}`)
  // the tab's own registration stays verified
  await expect(tab1.getByTestId('self-registration')).toHaveAttribute('data-verified', 'true')
  await expect.poll(() => walletPeerRows(tab1).then((r) => r.every((x) => x.verified))).toBe(true)
  await shot(tab1, 'wallet-claims')
})

test('a reverted faucet call reads as a sentence and leaves the panel consistent', async () => {
  const collateral = deployment().collateral
  test.skip(!collateral, 'the stack deployed no collateral token')
  const faucet = tab1.getByRole('button', { name: /^Get test / })
  await faucet.click()
  await expect(tab1.getByTestId('faucet-status')).toHaveAttribute('data-phase', 'confirmed')
  const units = tab1.getByTestId('collateral-balance')
  await expect(units).toHaveAttribute('data-units', /^[1-9]\d*$/)
  await expect(units).toContainText(collateral!.symbol)
  const eth = await tab1.getByTestId('eth-balance').getAttribute('data-wei')
  const tokens = await units.getAttribute('data-units')

  await faucet.click()
  const status = tab1.getByTestId('faucet-status')
  await expect(status).toHaveAttribute('data-phase', 'failed')
  await expect(tab1.getByTestId('faucet-status-error')).toHaveText(
    /^You already got test tokens recently; the faucet gives again at \d\d:\d\d:\d\d \(in \d+ (s|min|h)\)\.$/,
  )
  // nothing was sent: balances unchanged, buttons usable again
  await tab1.waitForTimeout(1_200)
  await expect(tab1.getByTestId('eth-balance')).toHaveAttribute('data-wei', eth!)
  await expect(units).toHaveAttribute('data-units', tokens!)
  await expect(faucet).toBeEnabled()
  await expect(tab1.getByRole('button', { name: /^Register (this peer|again)$/ })).toBeEnabled()
  await expect(tab1.getByTestId('wallet-status')).toHaveAttribute('data-status', 'connected')
  await shot(tab1, 'wallet-faucet-error')
})

test('registrations survive a restart of the stack with the same chain state', async () => {
  await stack.stop()
  // the chain is gone: the panel says so, naming the RPC
  await expect(tab1.getByTestId('wallet-error')).toHaveText(/^Cannot reach the chain at http:\/\/\S+/, {
    timeout: 10_000,
  })
  await shot(tab1, 'wallet-chain-down')
  stack = await startStack(options)
  await Promise.all([tab1.reload(), tab2.reload()])
  expect(await burnerReady(tab1)).toBe(burner)
  const both = [id1, id2].sort()
  await expect
    .poll(async () => (await walletPeerRows(tab1)).map((r) => `${r.peerId}:${r.verified}`).sort(), {
      timeout: 10_000,
    })
    .toEqual(both.map((id) => `${id}:true`))
  await expect.poll(() => peerClaimRows(tab1).then((r) => r.filter((c) => !c.verified).length)).toBe(3)
  await expect(tab1.getByTestId('self-registration')).toHaveAttribute('data-verified', 'true')
  await expect(tab1.getByTestId('wallet-error')).toHaveCount(0)
  await shot(tab1, 'wallet-after-restart')
})

test('the burner key round-trips through its passphrase-encrypted export', async () => {
  await exportForm(tab1).getByLabel('Passphrase').fill('correct horse battery')
  const [download] = await Promise.all([
    tab1.waitForEvent('download'),
    exportForm(tab1).getByRole('button', { name: 'Export encrypted key' }).click(),
  ])
  const file = join(tmp, download.suggestedFilename())
  await download.saveAs(file)
  const backup = JSON.parse(readFileSync(file, 'utf8')) as { address: string; cipher: { ciphertext: string } }
  expect(backup.address).toBe(burner)

  // another browser profile: its own burner until the backup is imported
  const other = await browser.newContext()
  const tab = await openTab(other, `${stack.url}#/wallet`)
  expect(await burnerReady(tab)).not.toBe(burner)
  await tab.getByTestId('burner-import-file').setInputFiles(file)
  await importForm(tab).getByLabel('Passphrase').fill('wrong horse battery')
  await importForm(tab).getByRole('button', { name: 'Import' }).click()
  await tab.getByTestId('confirm-ok').click()
  await expect(tab.getByTestId('burner-import-error')).toHaveText(
    'Wrong passphrase, or the file was changed after it was saved.',
  )
  await importForm(tab).getByLabel('Passphrase').fill('correct horse battery')
  await importForm(tab).getByRole('button', { name: 'Import' }).click()
  await expect(tab.getByRole('dialog')).toContainText('Replace the burner wallet?')
  await shot(tab, 'wallet-confirm-dialog')
  await tab.getByTestId('confirm-ok').click()
  await expect(tab.getByTestId('burner-import-done')).toBeVisible()
  await expect(tab.getByTestId('wallet-address')).toHaveText(burner)
  await expect.poll(() => walletPeerRows(tab).then((r) => r.length)).toBe(2)
  await other.close()
})

test('an injected wallet is asked to add and switch to the local chain, then registers the peer', async () => {
  const signer = anvilAccount(5)
  const account = signer.address
  const other = await browser.newContext()
  const tab = await other.newPage()
  await installFakeInjectedWallet(tab, signer, `${stack.url}rpc`)
  await tab.goto(`${stack.url}#/wallet`)
  await burnerReady(tab)
  await tab.getByRole('button', { name: /^(Connect|Switch to) browser wallet$/ }).click()
  const status = tab.getByTestId('wallet-status')
  await expect(status).toHaveAttribute('data-kind', 'injected')
  await expect(status).toHaveAttribute('data-status', 'connected')
  await expect(tab.getByTestId('wallet-address')).toHaveText(account)
  await expect(tab.getByRole('combobox', { name: 'Network' })).toHaveValue('31337')
  const log = await fakeWalletLog(tab)
  expect(log.methods).toEqual(
    expect.arrayContaining(['eth_requestAccounts', 'wallet_switchEthereumChain', 'wallet_addEthereumChain']),
  )
  expect(log.added).toEqual([
    expect.objectContaining({ chainId: '0x7a69', chainName: 'Local chain', rpcUrls: [`${stack.url}rpc`] }),
  ])

  const id = await tab.getByTestId('header-self-id').getAttribute('title')
  await tab.getByRole('button', { name: /^Register (this peer|again)$/ }).click()
  await expect(tab.getByTestId('registration-status')).toHaveAttribute('data-phase', 'confirmed')
  // the app asked the wallet to send; the wallet signed it and sent it raw through /rpc
  const sent = await fakeWalletLog(tab)
  expect(sent.methods).toContain('eth_sendTransaction')
  expect(sent.sent).toEqual([await tab.getByTestId('registration-status-hash').getAttribute('title')])
  await expect.poll(() => walletPeerRows(tab)).toEqual([{ peerId: id, wallet: account, verified: true }])
  await shot(tab, 'wallet-injected')
  await other.close()
})

test('without a local chain the Wallet view says so and connects nothing by itself', async () => {
  const bare = await startStack({ relayPort: 19624, relayHttpPort: 19625, appPort: 19626 })
  try {
    const tab = await openTab(await browser.newContext(), `${bare.url}#/wallet`)
    await expect(tab.getByTestId('wallet-card')).toContainText('This app server runs no local chain')
    await expect(tab.getByTestId('wallet-status')).toHaveAttribute('data-status', 'disconnected')
    await expect(tab.getByRole('combobox', { name: 'Network' }).locator('option')).toHaveText([
      'Gensyn Testnet (685685)',
      'Gensyn Mainnet (685689)',
    ])
    await expect(tab.getByRole('button', { name: /^Register (this peer|again)$/ })).toBeDisabled()
    await expect(tab.getByTestId('registration-card')).toContainText('the app server runs no chain')
    await shot(tab, 'wallet-no-chain')
    await tab.context().close()
  } finally {
    await bare.stop()
  }
})
