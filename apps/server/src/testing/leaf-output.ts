/**
 * Adds a `leaf` output to an ONNX model, for tests of the not-leaf outcome without the retrained
 * model: leaf = Sigmoid(energy + bias), a [N] float32 output computed from the graph's existing
 * `energy` output. A large positive bias gives 1 (a leaf), a large negative one 0 (not a leaf).
 *
 * ONNX files are protobuf: the graph (ModelProto field 7) gets two more nodes (GraphProto field
 * 1, appended after every node, so the order stays topological) and one more output (field 12).
 * Only the few protobuf wire rules needed for that are written here.
 */

function varint(n: number): Buffer {
  const out: number[] = [];
  let v = BigInt(n);
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v) b |= 0x80;
    out.push(b);
  } while (v);
  return Buffer.from(out);
}

function lenField(field: number, bytes: Buffer | string): Buffer {
  const b = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes;
  return Buffer.concat([varint((field << 3) | 2), varint(b.length), b]);
}

function intField(field: number, n: number): Buffer {
  return Buffer.concat([varint(field << 3), varint(n)]);
}

const FLOAT = 1; // TensorProto.DataType.FLOAT
const ATTR_TENSOR = 4; // AttributeProto.AttributeType.TENSOR

/** NodeProto: input (1), output (2), name (3), op_type (4), attribute (5). */
function node(op: string, name: string, inputs: string[], outputs: string[], attrs: Buffer[] = []) {
  return Buffer.concat([
    ...inputs.map((i) => lenField(1, i)),
    ...outputs.map((o) => lenField(2, o)),
    lenField(3, name),
    lenField(4, op),
    ...attrs.map((a) => lenField(5, a)),
  ]);
}

/** A scalar float32 TensorProto: data_type (2), raw_data (9). */
function scalar(value: number): Buffer {
  const raw = Buffer.alloc(4);
  raw.writeFloatLE(value);
  return Buffer.concat([intField(2, FLOAT), lenField(9, raw)]);
}

interface Field {
  field: number;
  wire: number;
  /** the whole field, key included */
  bytes: Buffer;
  /** the payload of a length-delimited field */
  payload?: Buffer;
}

function readVarint(buf: Buffer, pos: number): [bigint, number] {
  let v = 0n;
  let shift = 0n;
  for (;;) {
    const b = buf[pos++];
    if (b === undefined) throw new Error('truncated protobuf varint');
    v |= BigInt(b & 0x7f) << shift;
    if (!(b & 0x80)) return [v, pos];
    shift += 7n;
  }
}

/** The top-level fields of a protobuf message, in order. */
function fields(buf: Buffer): Field[] {
  const out: Field[] = [];
  let pos = 0;
  while (pos < buf.length) {
    const start = pos;
    const [key, p] = readVarint(buf, pos);
    pos = p;
    const field = Number(key >> 3n);
    const wire = Number(key & 7n);
    let payload: Buffer | undefined;
    if (wire === 0) pos = readVarint(buf, pos)[1];
    else if (wire === 1) pos += 8;
    else if (wire === 5) pos += 4;
    else if (wire === 2) {
      const [len, q] = readVarint(buf, pos);
      payload = buf.subarray(q, q + Number(len));
      pos = q + Number(len);
    } else throw new Error(`unsupported protobuf wire type ${wire}`);
    out.push({ field, wire, bytes: buf.subarray(start, pos), ...(payload ? { payload } : {}) });
  }
  return out;
}

/** The model's bytes with a `leaf` output = Sigmoid(energy + bias) added to its graph. */
export function addLeafOutput(onnx: Buffer, bias: number): Buffer {
  const parts = fields(onnx);
  const graph = parts.find((f) => f.field === 7 && f.wire === 2);
  if (!graph?.payload) throw new Error('no graph in this ONNX file');
  const outputs = fields(graph.payload)
    .filter((f) => f.field === 12 && f.payload)
    .map((f) =>
      fields(f.payload as Buffer)
        .find((g) => g.field === 1)
        ?.payload?.toString(),
    );
  if (!outputs.includes('energy')) throw new Error("the graph has no 'energy' output");
  if (outputs.includes('leaf')) throw new Error("the graph already has a 'leaf' output");
  const value = Buffer.concat([
    lenField(1, 'value'),
    lenField(5, scalar(bias)),
    intField(20, ATTR_TENSOR),
  ]);
  // TypeProto.Tensor {elem_type (1), shape (2): TensorShapeProto {dim (1): {dim_param (2): 'N'}}}
  const tensorType = Buffer.concat([
    intField(1, FLOAT),
    lenField(2, lenField(1, lenField(2, 'N'))),
  ]);
  const extra = Buffer.concat([
    lenField(1, node('Constant', 'test_leaf_bias', [], ['test_leaf_bias'], [value])),
    lenField(1, node('Add', 'test_leaf_add', ['energy', 'test_leaf_bias'], ['test_leaf_logit'])),
    lenField(1, node('Sigmoid', 'test_leaf_sigmoid', ['test_leaf_logit'], ['leaf'])),
    // ValueInfoProto {name, type: TypeProto {tensor_type: {elem_type: FLOAT, shape: [N]}}}
    lenField(12, Buffer.concat([lenField(1, 'leaf'), lenField(2, lenField(1, tensorType))])),
  ]);
  const newGraph = lenField(7, Buffer.concat([graph.payload, extra]));
  return Buffer.concat(parts.map((f) => (f === graph ? newGraph : f.bytes)));
}
