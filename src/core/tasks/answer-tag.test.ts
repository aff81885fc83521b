import { describe, expect, it } from 'vitest'
import { answersBare, extractAnswer } from './answer-tag.ts'

describe('extractAnswer', () => {
  it('takes the last tagged answer, trimmed, across lines and in any case', () => {
    expect(extractAnswer('I think <answer>3</answer>… no: <ANSWER>\n 4 \n</Answer>')).toBe('4')
  })

  it('finds nothing without a closed pair of tags', () => {
    expect(extractAnswer('the answer is 4')).toBeUndefined()
    expect(extractAnswer('<answer>4')).toBeUndefined()
  })

  it('keeps an empty answer empty (which no family accepts)', () => {
    expect(extractAnswer('<answer> </answer>')).toBe('')
  })
})

describe('answersBare', () => {
  it('is true when the tagged answer comes first, and false after a working', () => {
    expect(answersBare(' <answer>5</answer>')).toBe(true)
    expect(answersBare('<ANSWER>5</ANSWER>')).toBe(true)
    expect(answersBare('137 mod 12 = 5. <answer>5</answer>')).toBe(false)
    expect(answersBare('')).toBe(false)
  })
})
