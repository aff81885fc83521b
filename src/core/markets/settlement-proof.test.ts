import { describe, expect, it } from 'vitest'
import { classifyProof } from './settlement-proof.ts'

describe('classifyProof', () => {
  it('has no proof for null, empty or blank text', () => {
    expect(classifyProof(null)).toBeNull()
    expect(classifyProof('')).toBeNull()
    expect(classifyProof('  \n')).toBeNull()
  })

  it('links an http(s) URL, as the URL parser normalises it', () => {
    expect(classifyProof('https://proofs.example/m/0xabc.json')).toEqual({
      kind: 'url',
      href: 'https://proofs.example/m/0xabc.json',
    })
    expect(classifyProof(' HTTP://Example.org/p ')).toEqual({ kind: 'url', href: 'http://example.org/p' })
  })

  it('takes a JSON object as the receipt document, keeping its exact text', () => {
    const receipt = '{"commit_hash":"ab12","receipt_hash":"cd34","text_output":"Yes"}\n'
    expect(classifyProof(receipt)).toEqual({ kind: 'receipt', document: receipt })
  })

  it('shows anything else as text: other schemes, JSON that is not an object, broken JSON, words', () => {
    for (const text of ['ipfs://bafy/receipt.json', '[1, 2]', '{"receipt_hash":', 'settled by hand'])
      expect(classifyProof(text)).toEqual({ kind: 'text', text })
  })

  it('never makes a link of a scheme a click would run, however it is spelled', () => {
    for (const text of [
      'javascript:alert(1)',
      'JavaScript:alert(document.cookie)',
      'java\tscript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox(1)',
    ])
      expect(classifyProof(text)).toEqual({ kind: 'text', text })
  })
})
