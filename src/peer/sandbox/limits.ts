// The limits every peer applies to candidate code. They are part of what makes a verdict the same on
// every peer, so a swarm should agree on them (the defaults, or its config's).
export interface SandboxLimits {
  /** QuickJS heap limit (runtime.setMemoryLimit): allocations past it fail with "out of memory" */
  memoryBytes: number
  /** QuickJS stack limit; kept well under the host's own stack so deep recursion fails inside the guest */
  stackBytes: number
  /**
   * Deterministic time budget: QuickJS polls its interrupt handler about every 10 000 calls/branches, and
   * the sandbox counts those polls. The same code runs out of steps at the same point on every peer,
   * however fast the machine, so this is the limit that should bind.
   */
  maxSteps: number
  /** Wall-clock backstop for a job (candidate + all its tests), for work the step count misses */
  deadlineMs: number
  /** console output past this many UTF-16 code units stops the run */
  outputChars: number
  /** how long past the deadline the main thread waits for an answer before it kills the worker */
  killGraceMs: number
}

/**
 * 5 000 steps took 0.2–0.6 s of a tight loop in Chromium and 0.7–1.5 s in Node on a busy 2-core machine
 * (3 000 – 12 000 polls/s, depending on the code and the engine), so the 2 s deadline binds only on
 * machines several times slower. 64 MiB is plenty for MBPP-sized problems.
 */
export const DEFAULT_LIMITS: Readonly<SandboxLimits> = {
  memoryBytes: 64 * 1024 * 1024,
  stackBytes: 256 * 1024,
  maxSteps: 5_000,
  deadlineMs: 2_000,
  outputChars: 64 * 1024,
  killGraceMs: 500,
}
