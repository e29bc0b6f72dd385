/**
 * The part of the WebAssembly API the kernels use (`use/kernel`, `e5/kernel`): Node has it all,
 * but its types come with the DOM library, which the services do not load.
 */
export const wasm = (
  globalThis as unknown as {
    WebAssembly: {
      Module: new (bytes: Uint8Array) => object;
      Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
      Memory: new (descriptor: { initial: number }) => {
        buffer: ArrayBuffer;
        grow(pages: number): number;
      };
    };
  }
).WebAssembly;
