import imageCompression from 'browser-image-compression';
import { COMPRESSION_OPTIONS, type CompressionReply } from './compressOptions';

// Bundled with the app, so the library runs off the main thread without the copy it would
// otherwise load from a public CDN into its own worker.
addEventListener('message', (event: MessageEvent<File>) => {
  const reply = (message: CompressionReply) => postMessage(message);
  imageCompression(event.data, { ...COMPRESSION_OPTIONS, useWebWorker: false }).then(
    (blob) => reply({ ok: true, blob }),
    (error: unknown) =>
      reply({ ok: false, message: error instanceof Error ? error.message : String(error) }),
  );
});
