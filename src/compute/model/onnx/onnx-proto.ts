// Typed builders for the subset of onnx.proto (github.com/onnx/onnx, onnx/onnx.proto) a decoder needs.
// Field numbers and enum values below are those of onnx.proto; nothing else is encoded.
import { littleEndianBytes, ProtoWriter } from './protobuf.ts'

/** TensorProto.DataType values used here. */
const DataType = { FLOAT: 1, INT64: 7 } as const
export type ElemType = 'float32' | 'int64'
const ELEM_TYPE: Record<ElemType, number> = { float32: DataType.FLOAT, int64: DataType.INT64 }

/** AttributeProto.AttributeType values used here. */
const ATTR_INT = 2
const ATTR_INTS = 7

export interface Tensor {
  readonly name: string
  /** Empty for a scalar. */
  readonly dims: readonly number[]
  readonly data: Float32Array | BigInt64Array
}

export type Attribute =
  | { readonly name: string; readonly int: number }
  | { readonly name: string; readonly ints: readonly number[] }

export interface Node {
  readonly opType: string
  readonly inputs: readonly string[]
  readonly outputs: readonly string[]
  readonly name: string
  readonly attributes?: readonly Attribute[]
}

/** A dimension is a fixed size or a symbolic name (`dim_param`) shared by inputs and outputs. */
export type Dim = number | string

export interface ValueInfo {
  readonly name: string
  readonly elemType: ElemType
  readonly shape: readonly Dim[]
}

export interface Graph {
  readonly name: string
  readonly nodes: readonly Node[]
  readonly initializers: readonly Tensor[]
  readonly inputs: readonly ValueInfo[]
  readonly outputs: readonly ValueInfo[]
}

export interface Model {
  readonly irVersion: number
  /** Version of the default ("ai.onnx") operator set. */
  readonly opsetVersion: number
  readonly producerName: string
  readonly graph: Graph
}

export function encodeModel(model: Model): Uint8Array {
  const opset = new ProtoWriter().string(1, '').varint(2, model.opsetVersion)
  return new ProtoWriter()
    .varint(1, model.irVersion)
    .string(2, model.producerName)
    .message(7, graphProto(model.graph))
    .message(8, opset)
    .finish()
}

function graphProto(graph: Graph): ProtoWriter {
  const w = new ProtoWriter()
  for (const node of graph.nodes) w.message(1, nodeProto(node))
  w.string(2, graph.name)
  for (const t of graph.initializers) w.message(5, tensorProto(t))
  for (const v of graph.inputs) w.message(11, valueInfoProto(v))
  for (const v of graph.outputs) w.message(12, valueInfoProto(v))
  return w
}

function nodeProto(node: Node): ProtoWriter {
  const w = new ProtoWriter()
  for (const name of node.inputs) w.string(1, name)
  for (const name of node.outputs) w.string(2, name)
  w.string(3, node.name).string(4, node.opType)
  for (const a of node.attributes ?? []) w.message(5, attributeProto(a))
  return w
}

function attributeProto(a: Attribute): ProtoWriter {
  const w = new ProtoWriter().string(1, a.name)
  if ('int' in a) return w.varint(3, a.int).varint(20, ATTR_INT)
  return w.packedVarints(8, a.ints).varint(20, ATTR_INTS)
}

function tensorProto(t: Tensor): ProtoWriter {
  const count = t.dims.reduce((a, b) => a * b, 1)
  if (count !== t.data.length)
    throw new RangeError(
      `onnx tensor ${t.name}: dims [${t.dims}] hold ${count} values, data has ${t.data.length}`,
    )
  const type = t.data instanceof Float32Array ? DataType.FLOAT : DataType.INT64
  return new ProtoWriter()
    .packedVarints(1, t.dims)
    .varint(2, type)
    .string(8, t.name)
    .bytes(9, littleEndianBytes(t.data))
}

function valueInfoProto(v: ValueInfo): ProtoWriter {
  const shape = new ProtoWriter()
  for (const d of v.shape) {
    const dim = typeof d === 'number' ? new ProtoWriter().varint(1, d) : new ProtoWriter().string(2, d)
    shape.message(1, dim)
  }
  const tensorType = new ProtoWriter().varint(1, ELEM_TYPE[v.elemType]).message(2, shape)
  return new ProtoWriter().string(1, v.name).message(2, new ProtoWriter().message(1, tensorType))
}
