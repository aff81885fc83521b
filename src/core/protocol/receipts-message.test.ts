import { generateKeyPair } from '@libp2p/crypto/keys'
import { peerIdFromPrivateKey } from '@libp2p/peer-id'
import { describe, expect, it } from 'vitest'
import { demoGeneration } from '../../host/demo/demo-receipts.ts'
import { kernelsHashFromDisk } from '../../compute/proof/kernels-hash-node.ts'
import { makeReceiptsBody, validateReceiptsBody } from './receipts-message.ts'
import { MAX_MESSAGE_BYTES } from './topics.ts'

const key = await generateKeyPair('Ed25519')
const peerId = peerIdFromPrivateKey(key).toString()
const made = await demoGeneration(key, kernelsHashFromDisk())
const { receipt } = made
// a real side file (weights, optimizer, trace) is far above the cap; a stub one shows the path that fits
const inputs = {
  format: made.inputs.format,
  kind: made.inputs.kind,
  checkpoint: 'AAAA',
  chain: made.inputs.chain,
  inputs: {},
}

describe('the receipts message', () => {
  it('carries the side file when it fits, and only the receipt when it does not', () => {
    const small = makeReceiptsBody(receipt, inputs)
    expect(small).toEqual({ receipt, inputs })
    expect(JSON.stringify(small).length).toBeLessThan(MAX_MESSAGE_BYTES.receipts)
    expect(makeReceiptsBody(receipt, made.inputs)).toEqual({ receipt })
  })

  it("accepts its sender's signed receipt, with or without the side file", () => {
    expect(validateReceiptsBody(JSON.parse(JSON.stringify({ receipt, inputs })), peerId)).toEqual({
      receipt,
      inputs,
    })
    expect(validateReceiptsBody({ receipt }, peerId)).toEqual({ receipt })
  })

  it.each([
    ['nope', peerId, 'receipts body is not an object'],
    [{ receipt, extra: 1 }, peerId, 'unknown field "extra"'],
    [{ receipt: { ...receipt, chainTip: 'x' } }, peerId, 'receipt: chainTip must be 64 lowercase hex digits'],
    [{ receipt }, '12D3KooWSomeoneElse', "not its sender's"],
    [{ receipt, inputs: { format: 'x' } }, peerId, 'inputs file: format'],
  ])('refuses a bad body, saying why (%#)', (body, from, message) => {
    expect(validateReceiptsBody(body, from)).toContain(message)
  })
})
