// The GRPO objective's own settings, declared once. The swarm config (learning-config.ts `grpo`), the
// step on the reproducible kernels (src/compute/model/grpo-step.ts `GrpoConfig`) and a step receipt's
// params (src/compute/proof/work-params.ts `GrpoParams`) each add their optimizer settings to these;
// the kernel takes them as Q30 integers (src/compute/kernels/ref/grpo.ts `GrpoLossInput`).

export interface GrpoObjective {
  /** ε_low (DAPO's 0.2): the ratio is kept within [1 − clipEps, 1 + clipEpsHigh] */
  readonly clipEps: number
  /** ε_high (DAPO's clip-higher, 0.28): a larger ceiling lets unlikely good tokens gain faster */
  readonly clipEpsHigh: number
  /**
   * β of DeepSeekMath's KL penalty (k3 estimator) against a reference policy. Absent: no penalty, and
   * the step is bit for bit the surrogate alone. A receipt never records 0 (absent instead, so a
   * receipt without a penalty hashes as it did before the penalty existed); the swarm config leaves a
   * 0 out for the same reason with its swarm id.
   */
  readonly klBeta?: number
}
