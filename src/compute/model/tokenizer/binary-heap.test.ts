import { describe, expect, it } from 'vitest'
import { BinaryHeap } from './binary-heap.ts'

describe('BinaryHeap', () => {
  it('pops in the order the comparison gives, whatever the push order', () => {
    const values = [5, 3, 9, 1, 7, 3, 8, 2, 6, 0, 4, 9]
    const heap = new BinaryHeap<number>((a, b) => a > b)
    for (const value of values) heap.push(value)
    expect(heap.size).toBe(values.length)
    const popped: number[] = []
    for (let value = heap.pop(); value !== undefined; value = heap.pop()) popped.push(value)
    expect(popped).toEqual([...values].sort((a, b) => b - a))
    expect(heap.size).toBe(0)
  })

  it('interleaves pushes and pops', () => {
    const heap = new BinaryHeap<number>((a, b) => a < b)
    heap.push(4)
    heap.push(2)
    expect(heap.pop()).toBe(2)
    heap.push(1)
    heap.push(3)
    expect([heap.pop(), heap.pop(), heap.pop(), heap.pop()]).toEqual([1, 3, 4, undefined])
  })
})
