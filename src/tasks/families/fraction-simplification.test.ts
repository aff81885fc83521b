import { describe, expect, it } from 'vitest'
import { fractionSimplification } from './fraction-simplification.ts'

const { canonical } = fractionSimplification

describe('fraction answers', () => {
  it.each([
    ['2/3', '2/3'],
    [' -2 / 3 ', '-2/3'],
    ['2/-3', '-2/3'],
    ['-(2/3)', '-2/3'],
    ['\\frac{2}{3}', '2/3'],
    ['-\\dfrac{2}{3}', '-2/3'],
    ['5/1', '5'],
    ['5', '5'],
  ])('reads %j as %s', (text, value) => {
    expect(canonical(text)).toBe(value)
  })

  it.each(['4/6', '2/0', '1 1/3', '2 / 3 4', '0.5', 'two thirds', '2//3'])('refuses %j', (text) => {
    expect(canonical(text)).toBeUndefined()
  })
})
