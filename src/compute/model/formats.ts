/**
 * Fixed exponents of the forward activations. Fixed formats (rather than per-tensor exponents picked
 * from the data) keep each token's activations independent of the other tokens in the batch and of
 * later tokens, so a KV-cached generation reproduces the full forward bit for bit.
 */

/** Residual stream: ±2048 at a resolution of 9.5e-7. */
export const RESIDUAL_EXP = -20
/** Normalised inputs, q/k/v, attention outputs and SwiGLU hidden units: ±2048 at 9.5e-7. */
export const ACT_EXP = -20
/** Logits: ±32768 at 1.5e-5. */
export const LOGIT_EXP = -16
