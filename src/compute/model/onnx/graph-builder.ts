// Collects ONNX nodes and initializers under unique names, so an exporter reads like the forward pass:
// `const y = g.op('MatMul', [x, w])`.
import type { Attribute, Node, Tensor } from './onnx-proto.ts'

export class GraphBuilder {
  readonly nodes: Node[] = []
  readonly initializers: Tensor[] = []
  private readonly names = new Set<string>()
  private readonly constants = new Map<string, string>()
  private counter = 0

  /** Adds a node with one output (named `output`, or a fresh name) and returns that output. */
  op(opType: string, inputs: readonly string[], attributes?: readonly Attribute[], output?: string): string {
    return this.opN(opType, inputs, [output ?? this.fresh(opType)], attributes)[0]!
  }

  /** Adds a node with the given outputs and returns them. */
  opN(
    opType: string,
    inputs: readonly string[],
    outputs: readonly string[],
    attributes?: readonly Attribute[],
  ): readonly string[] {
    for (const name of outputs) this.claim(name)
    this.nodes.push({ opType, inputs, outputs, name: `${opType}_${this.nodes.length}`, attributes })
    return outputs
  }

  /** Fresh output names for `opN`. */
  freshNames(prefix: string, count: number): string[] {
    return Array.from({ length: count }, () => this.fresh(prefix))
  }

  /** An initializer under its own name (weights keep their parameter names). */
  initializer(name: string, dims: readonly number[], data: Float32Array | BigInt64Array): string {
    this.claim(name)
    this.initializers.push({ name, dims, data })
    return name
  }

  /** An int64 constant, 1-D by default or a scalar; equal constants share one initializer. */
  int64(values: readonly number[], scalar = false): string {
    if (scalar && values.length !== 1) throw new RangeError('an int64 scalar takes exactly one value')
    const dims = scalar ? [] : [values.length]
    return this.constant(`i64_${dims.length}d`, values, dims, () => BigInt64Array.from(values, BigInt))
  }

  /** A float32 scalar constant. */
  float(value: number): string {
    return this.constant('f32', [value], [], () => Float32Array.of(value))
  }

  private constant(
    kind: string,
    values: readonly number[],
    dims: readonly number[],
    data: () => Float32Array | BigInt64Array,
  ): string {
    const key = `${kind}:${values.join(',')}`
    const known = this.constants.get(key)
    if (known) return known
    const name = this.initializer(this.fresh(`const_${kind}`), dims, data())
    this.constants.set(key, name)
    return name
  }

  /** A name no call has returned or claimed yet (a counter, so names handed out unclaimed stay unique). */
  private fresh(prefix: string): string {
    let name: string
    do name = `${prefix}_${this.counter++}`
    while (this.names.has(name))
    return name
  }

  private claim(name: string): void {
    if (this.names.has(name)) throw new RangeError(`onnx graph: the name ${name} is used twice`)
    this.names.add(name)
  }
}
