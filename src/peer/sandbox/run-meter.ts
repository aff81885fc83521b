// Counts what a run uses (interrupt polls, wall-clock time, output) and says when to stop. Once a limit
// is hit the meter stays stopped: every later poll interrupts again, so guest code that catches the
// "interrupted" error (or runs from an error's getter while the host reads it) cannot carry on.
import type { SandboxLimits } from './limits.ts'

export type StopReason = 'steps' | 'deadline' | 'output'

export class RunMeter {
  steps = 0
  stopped: StopReason | undefined
  private readonly chunks: string[] = []
  private chars = 0
  private readonly deadline: number

  constructor(
    private readonly limits: SandboxLimits,
    private readonly now: () => number,
  ) {
    this.deadline = now() + limits.deadlineMs
  }

  /** The interrupt handler: true stops the guest. */
  poll(): boolean {
    if (this.stopped === undefined) {
      this.steps += 1
      if (this.steps > this.limits.maxSteps) this.stopped = 'steps'
      else if (this.now() > this.deadline) this.stopped = 'deadline'
    }
    return this.stopped !== undefined
  }

  /** Keeps output up to the limit; past it the run stops at the guest's next poll. */
  print(line: string): void {
    if (this.stopped !== undefined) return
    const text = `${line}\n`
    this.chunks.push(text.slice(0, Math.max(0, this.limits.outputChars - this.chars)))
    this.chars += text.length
    if (this.chars > this.limits.outputChars) this.stopped = 'output'
  }

  get output(): string {
    return this.chunks.join('')
  }
}
