// Runs jobs, each in a fresh engine (quickjs-engine.ts says why). A failure of the engine itself — a
// WebAssembly trap, the host's own stack overflowing — scores as an error; the next job starts clean
// anyway.
import type { SandboxLimits } from './limits.ts'
import { instantiateQuickJS, type CompileQuickJS } from './quickjs-engine.ts'
import { runInQuickJS } from './run-in-quickjs.ts'
import type { SandboxJob } from '../../core/tasks/sandbox-job.ts'
import type { SandboxResult } from '../../core/tasks/verdict.ts'

export class QuickJSSandbox {
  private constructor(private readonly compiled: WebAssembly.Module) {}

  static async load(compile: CompileQuickJS): Promise<QuickJSSandbox> {
    const compiled = await compile()
    // The first engine imports the variant's JavaScript glue (lazy chunks in the browser build); doing it
    // here means that no job ever causes a request.
    await instantiateQuickJS(compiled, 0)
    return new QuickJSSandbox(compiled)
  }

  async run(job: SandboxJob, limits: SandboxLimits): Promise<SandboxResult> {
    const started = performance.now()
    const engine = await instantiateQuickJS(this.compiled, limits.memoryBytes)
    try {
      return runInQuickJS(engine, job, limits)
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error)
      return {
        verdict: { kind: 'error', message: `the sandbox engine failed: ${reason}` },
        output: '',
        steps: 0,
        elapsedMs: performance.now() - started,
      }
    }
  }
}
