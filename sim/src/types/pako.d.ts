// The one pako function the histogram encoder uses (pako ships no types).
declare module 'pako' {
  export function deflate(data: Uint8Array): Uint8Array;
  const pako: { deflate: typeof deflate };
  export default pako;
}
