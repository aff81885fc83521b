// Which trainer a tab's peer learns with: the one it saved when that one trains this swarm's model from
// this model's weights, else a fresh one from the model's checkpoint. The trainer is saved per peer,
// not per swarm, so the same identity in two swarms of one model keeps learning one set of weights;
// two models may share a name (a receipt's modelId names the architecture the verifier re-executes),
// so the name alone does not say the saved weights descend from this model's.
import type { TrainerClient } from './trainer-client.ts'
import { snapshotKeyOf, type TrainerReady } from './trainer-session.ts'
import type { LearningModel } from '../peer/learning-model.ts'

/** Whether a saved trainer goes on training `model`: its name, and the weights it started from. */
function trainsModel(saved: TrainerReady, model: Pick<LearningModel, 'modelId' | 'weightsHash'>): boolean {
  const { modelId, startWeightsHash } = saved.status
  // a trainer saved before it recorded its start is taken at its name, as it always was
  return modelId === model.modelId && (startWeightsHash ?? model.weightsHash) === model.weightsHash
}

export async function startTrainer(
  trainer: Pick<TrainerClient, 'resume' | 'init'>,
  model: Pick<LearningModel, 'modelId' | 'weightsHash' | 'checkpoint' | 'eosId'>,
  peerId: string,
): Promise<TrainerReady> {
  const key = snapshotKeyOf(peerId)
  // a damaged snapshot is replaced: the swarm's weights are always there to start over from
  const saved = await trainer.resume(key).catch(() => undefined)
  if (saved && trainsModel(saved, model)) return saved
  return trainer.init({ modelId: model.modelId, padId: model.eosId, checkpoint: model.checkpoint }, key)
}
