// A binary min-heap under a caller's ordering (before(a, b) ⇔ a pops first); the BPE trainer keeps
// its candidate pairs in one.

export class BinaryHeap<T> {
  private readonly items: T[] = []

  constructor(private readonly before: (a: T, b: T) => boolean) {}

  get size(): number {
    return this.items.length
  }

  push(item: T): void {
    const items = this.items
    items.push(item)
    let child = items.length - 1
    while (child > 0) {
      const parent = (child - 1) >> 1
      if (!this.before(item, items[parent] as T)) break
      items[child] = items[parent] as T
      child = parent
    }
    items[child] = item
  }

  pop(): T | undefined {
    const items = this.items
    const top = items[0]
    const last = items.pop()
    if (items.length === 0 || last === undefined) return top
    let parent = 0
    for (;;) {
      let child = 2 * parent + 1
      if (child >= items.length) break
      const right = child + 1
      if (right < items.length && this.before(items[right] as T, items[child] as T)) child = right
      if (!this.before(items[child] as T, last)) break
      items[parent] = items[child] as T
      parent = child
    }
    items[parent] = last
    return top
  }
}
