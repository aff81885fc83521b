// The trainer worker's methods over a trainer session: the worker's whole job apart from its global.
// Checkpoints go back as transferred buffers (the session hands out copies, so nothing it keeps moves).
import type { RpcHandlers } from '../rpc/worker-rpc.ts'
import type { TrainerMethods } from './trainer-protocol.ts'
import type { TrainerSession } from './trainer-session.ts'

export function trainerHandlers(session: TrainerSession): RpcHandlers<TrainerMethods> {
  return {
    async resume({ key }, { transfer }) {
      const ready = (await session.resume(key)) ?? null
      if (ready) transfer(ready.checkpoint.buffer as ArrayBuffer)
      return ready
    },
    async init({ start, key }, { transfer }) {
      const ready = await session.init(start, key)
      transfer(ready.checkpoint.buffer as ArrayBuffer)
      return ready
    },
    async step({ groups, params }, { transfer }) {
      const result = await session.step(groups, params)
      transfer(result.checkpoint.buffer as ArrayBuffer)
      return result
    },
  }
}
