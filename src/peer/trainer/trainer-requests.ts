// Answers the page's requests with a trainer session: the worker's whole job apart from its global.
// Checkpoints go back as transferred buffers (the session hands out copies, so nothing it keeps moves).
import type { TrainerEvent, TrainerRequest } from './trainer-protocol.ts'
import type { TrainerReady, TrainerSession } from './trainer-session.ts'

export interface TrainerAnswer {
  readonly event: TrainerEvent
  readonly transfer: Transferable[]
}

const transferOf = (ready: TrainerReady | undefined | null): Transferable[] =>
  ready ? [ready.checkpoint.buffer as ArrayBuffer] : []

async function run(session: TrainerSession, request: TrainerRequest): Promise<TrainerAnswer> {
  const { requestId } = request
  switch (request.type) {
    case 'resume': {
      const ready = (await session.resume(request.key)) ?? null
      return { event: { type: 'ready', requestId, ready }, transfer: transferOf(ready) }
    }
    case 'init': {
      const ready = await session.init(request.start, request.key)
      return { event: { type: 'ready', requestId, ready }, transfer: transferOf(ready) }
    }
    case 'step': {
      const result = await session.step(request.groups, request.params)
      return { event: { type: 'stepped', requestId, result }, transfer: transferOf(result) }
    }
    default:
      throw new RangeError(`unknown trainer request ${JSON.stringify((request as { type?: unknown }).type)}`)
  }
}

/** The one answer to a request: its result, or an error event naming what went wrong (never a throw). */
export async function answerTrainerRequest(
  session: TrainerSession,
  request: TrainerRequest,
): Promise<TrainerAnswer> {
  try {
    return await run(session, request)
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    return { event: { type: 'error', requestId: request.requestId, message }, transfer: [] }
  }
}
