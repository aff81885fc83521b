// The recipe of tabswarm-micro, the model the learning-swarm browser tests train: small enough (under
// 20k parameters) that three tabs take GRPO steps on the TS twin within a short round, trained just long
// enough on one easy family that some sampled answers earn a reward (GRPO learns nothing from groups
// whose rewards are all equal). `npm run model:train -- --recipe micro` runs exactly this.
import type { SolverRecipe } from './solver-training.ts'

export const MICRO_NAME = 'tabswarm-micro'

export const MICRO_RECIPE: SolverRecipe = {
  config: {
    vocabSize: 300,
    dim: 24,
    layers: 1,
    heads: 2,
    kvHeads: 1,
    ffnDim: 64,
    ropeTheta: 10000,
    maxSeqLen: 128,
    tiedEmbeddings: true,
    normEps: 1e-6,
  },
  hyperparameters: {
    steps: 400,
    batchSize: 8,
    lr: 1e-2,
    minLr: 1e-3,
    warmupSteps: 20,
    beta1: 0.9,
    beta2: 0.98,
    eps: 1e-8,
    weightDecay: 0.01,
    clipNorm: 1,
    tokenizerSeeds: 100,
    mix: [{ family: 'arithmetic', difficulty: 1, weight: 1 }],
  },
  initSeed: [0x6d69, 0x6372],
}
