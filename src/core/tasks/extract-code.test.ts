import { describe, expect, it } from 'vitest'
import { extractCode } from './extract-code.ts'

describe('extractCode', () => {
  it('takes the last javascript, js or untagged block', () => {
    expect(extractCode('```js\na\n```\ntext\n```javascript\nb\n```')).toBe('b\n')
    expect(extractCode('```\nc\n```')).toBe('c\n')
  })

  it('ignores blocks in other languages and unfenced code', () => {
    expect(extractCode('```python\ndef f(): pass\n```')).toBeUndefined()
    expect(extractCode('function f() {}')).toBeUndefined()
  })
})
