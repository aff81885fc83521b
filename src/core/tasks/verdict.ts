// What running candidate code against its hidden tests comes to. Everything but 'pass' is a failure for
// the reward; the kinds say why, so a user (and a test) can tell a wrong answer from hostile code.
export type Verdict =
  | { kind: 'pass'; tests: number }
  /** test: index of the first test whose value differs; expected/actual as JSON text */
  | { kind: 'fail'; test: number; expected: string; actual: string }
  /** test: index of the test that threw; absent when the candidate code itself threw or did not parse */
  | { kind: 'error'; message: string; test?: number }
  /**
   * steps: the deterministic budget ran out; deadline: the wall-clock deadline passed first (a slow
   * machine); hard-stop: the worker did not answer in time and was killed
   */
  | { kind: 'timeout'; limit: 'steps' | 'deadline' | 'hard-stop' }
  | { kind: 'memory-limit' }
  | { kind: 'output-limit' }

export type VerdictKind = Verdict['kind']

export interface SandboxResult {
  verdict: Verdict
  /** what the code printed with console.*, cut at the output limit */
  output: string
  /** interrupt polls used (see SandboxLimits.maxSteps) */
  steps: number
  /** wall-clock time of the run, as measured where it ran */
  elapsedMs: number
}
