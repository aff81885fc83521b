// A unit of work for the sandbox: candidate code and the hidden tests it must pass.

/**
 * One hidden test: a JavaScript expression evaluated after the candidate code, in the same global scope
 * (e.g. `sumDigits(123)`), and the JSON text its value must stringify to (e.g. `6`).
 */
export interface SandboxTest {
  expression: string
  expected: string
}

export interface SandboxJob {
  code: string
  tests: readonly SandboxTest[]
}
