import type { DescMethod, DescService } from '@bufbuild/protobuf';

/** The wire path of a method, also its metrics label: `/noted.notes.v1.NotesService/GetNote`. */
export const methodPath = (method: DescMethod): string =>
  `/${method.parent.typeName}/${method.name}`;

/** The adapter speaks unary calls only; a streaming method is refused when wiring, not at call time. */
export const unaryMethods = (service: DescService): DescMethod[] =>
  service.methods.map((method) => {
    if (method.methodKind !== 'unary') {
      throw new Error(
        `${service.typeName}.${method.name} is ${method.methodKind}; @noted/grpc serves unary methods only`,
      );
    }
    return method;
  });

/** A Buffer view of the serialized bytes, without copying them. */
export const toBuffer = (bytes: Uint8Array): Buffer =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
