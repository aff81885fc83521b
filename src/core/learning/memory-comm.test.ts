import { describe, expect, it } from 'vitest'
import { createMemoryHub } from './memory-comm.ts'

describe('createMemoryHub', () => {
  it('delivers to every other peer a copy, never to the sender, and knows when a round is all published', async () => {
    const hub = createMemoryHub()
    const [a, b, c] = ['a', 'b', 'c'].map((id) => hub.join(id)) as [
      ReturnType<typeof hub.join>,
      ReturnType<typeof hub.join>,
      ReturnType<typeof hub.join>,
    ]
    const heard: string[] = []
    for (const peer of [a, b, c])
      peer.onRollouts((from, round, body) =>
        heard.push(`${peer.peerId}<${from}@${round}:${JSON.stringify(body)}`),
      )
    let done = false
    const all = hub.allPublished(1).then(() => (done = true))
    // a change to the body after publishing reaches nobody: receivers get the body as it was sent
    const body = { groups: [] as never[] }
    const sent = a.publishRollouts(1, body)
    body.groups.push('changed' as never)
    await sent
    await b.publishRollouts(1, { groups: [] })
    await Promise.resolve()
    expect(done).toBe(false)
    await c.publishRollouts(1, { groups: [] })
    await all
    expect(heard.sort()).toEqual(
      [
        'b<a@1:{"groups":[]}',
        'c<a@1:{"groups":[]}',
        'a<b@1:{"groups":[]}',
        'c<b@1:{"groups":[]}',
        'a<c@1:{"groups":[]}',
        'b<c@1:{"groups":[]}',
      ].sort(),
    )
    expect(hub.delivered).toBe(6)
    await hub.allPublished(1)
  })
})
