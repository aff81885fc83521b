// Runs one job — candidate code, then each hidden test — in a fresh QuickJS runtime and context, and
// turns what happened into a verdict. Synchronous: it runs in the sandbox worker (or directly in Node
// tests); the main thread never calls it.
import {
  DefaultIntrinsics,
  type QuickJSContext,
  type QuickJSHandle,
  type QuickJSWASMModule,
} from 'quickjs-emscripten-core'
import { GUEST_PRELUDE, GUEST_RANDOM_SEED } from './guest-prelude.ts'
import type { SandboxLimits } from './limits.ts'
import { RunMeter } from './run-meter.ts'
import type { SandboxJob } from '../../core/tasks/sandbox-job.ts'
import type { SandboxResult, Verdict } from '../../core/tasks/verdict.ts'

/** Error messages are for people; a hostile one could be megabytes. */
const MAX_MESSAGE_CHARS = 500

export function runInQuickJS(
  engine: QuickJSWASMModule,
  job: SandboxJob,
  limits: SandboxLimits,
): SandboxResult {
  const now = () => performance.now()
  const started = now()
  const meter = new RunMeter(limits, now)
  const runtime = engine.newRuntime()
  try {
    runtime.setMemoryLimit(limits.memoryBytes)
    runtime.setMaxStackSize(limits.stackBytes)
    runtime.setInterruptHandler(() => meter.poll())
    // No Date: its clock and time zone differ between peers, and a verdict must not.
    const vm = runtime.newContext({ intrinsics: { ...DefaultIntrinsics, Date: false } })
    try {
      const verdict = judge(vm, job, meter)
      return { verdict, output: meter.output, steps: meter.steps, elapsedMs: now() - started }
    } finally {
      vm.dispose()
    }
  } finally {
    runtime.dispose()
  }
}

function judge(vm: QuickJSContext, job: SandboxJob, meter: RunMeter): Verdict {
  installPrelude(vm, meter)
  // Taken before the candidate runs, so code that replaces JSON.stringify does not decide its own score.
  const stringify = vm.getProp(vm.global, 'JSON').consume((json) => vm.getProp(json, 'stringify'))
  try {
    const loaded = vm.evalCode(job.code, 'candidate.js')
    if (loaded.error) return loaded.error.consume((thrown) => failure(vm, meter, thrown))
    loaded.value.dispose()
    for (const [test, { expression, expected }] of job.tests.entries()) {
      const value = vm.evalCode(expression, `test-${test}.js`)
      if (value.error) return value.error.consume((thrown) => failure(vm, meter, thrown, test))
      const text = value.value.consume((v) => vm.callFunction(stringify, vm.undefined, v))
      if (text.error) return text.error.consume((thrown) => failure(vm, meter, thrown, test))
      // JSON.stringify gives undefined for undefined and functions; that never equals an expected value.
      const actual = text.value.consume((t) => (vm.typeof(t) === 'string' ? vm.getString(t) : 'undefined'))
      if (meter.stopped) return stopped(meter.stopped)
      if (actual !== expected) return { kind: 'fail', test, expected, actual: truncate(actual) }
    }
    return meter.stopped ? stopped(meter.stopped) : { kind: 'pass', tests: job.tests.length }
  } finally {
    stringify.dispose()
  }
}

function installPrelude(vm: QuickJSContext, meter: RunMeter): void {
  const install = vm.unwrapResult(vm.evalCode(GUEST_PRELUDE, 'prelude.js'))
  const print = vm.newFunction('print', (line) => meter.print(vm.getString(line)))
  const seed = vm.newNumber(GUEST_RANDOM_SEED)
  try {
    vm.unwrapResult(vm.callFunction(install, vm.undefined, print, seed)).dispose()
  } finally {
    for (const handle of [install, print, seed]) handle.dispose()
  }
}

/** A limit that was hit explains the error it caused; otherwise the error is the candidate's own. */
function failure(vm: QuickJSContext, meter: RunMeter, thrown: QuickJSHandle, test?: number): Verdict {
  if (meter.stopped) return stopped(meter.stopped)
  const message = describe(vm, thrown)
  if (message === undefined || message === 'InternalError: out of memory') return { kind: 'memory-limit' }
  return test === undefined ? { kind: 'error', message } : { kind: 'error', message, test }
}

function stopped(reason: NonNullable<RunMeter['stopped']>): Verdict {
  return reason === 'output' ? { kind: 'output-limit' } : { kind: 'timeout', limit: reason }
}

/**
 * `Name: message` of a thrown value, or undefined when it is null: QuickJS throws null when it runs out
 * of memory while building the "out of memory" error itself. (Code that throws null, or an
 * "out of memory" InternalError, on purpose scores memory-limit: a failure all the same, on every peer.) Reads properties rather than dumping the
 * value, which would call a hostile toJSON or unwrap a thrown promise.
 */
function describe(vm: QuickJSContext, thrown: QuickJSHandle): string | undefined {
  switch (vm.typeof(thrown)) {
    case 'string':
      return truncate(`thrown: ${vm.getString(thrown)}`)
    case 'number':
      return `thrown: ${vm.getNumber(thrown)}`
    case 'object': {
      if (vm.eq(thrown, vm.null)) return undefined
      const message = stringProp(vm, thrown, 'message')
      if (message !== undefined) return truncate(`${stringProp(vm, thrown, 'name') ?? 'Error'}: ${message}`)
      return 'thrown: an object that is not an Error'
    }
    default:
      return `thrown: a ${vm.typeof(thrown)}`
  }
}

function stringProp(vm: QuickJSContext, object: QuickJSHandle, key: string): string | undefined {
  return vm.getProp(object, key).consume((v) => (vm.typeof(v) === 'string' ? vm.getString(v) : undefined))
}

function truncate(text: string): string {
  return text.length <= MAX_MESSAGE_CHARS ? text : `${text.slice(0, MAX_MESSAGE_CHARS)}…`
}
