/**
 * What the export service hands its renderers (PDF, PNG card) and its Markdown writer: one
 * note as the notes service stores it, and the bytes of the images it shows, already read
 * through the notes service's gRPC. Nothing here knows about gRPC or HTTP.
 */
export interface ExportNote {
  id: string;
  title: string;
  /** The note text, in Markdown, as stored. */
  body: string;
  tags: string[];
  createdAt: Date;
  updatedAt: Date;
}

/** One of a note's images. */
export interface ExportImage {
  /** The URL exactly as it appears in the note's body and images list. */
  url: string;
  /** The sniffed type, `image/png`, `image/jpeg`, `image/webp`, ... */
  contentType: string;
  bytes: Buffer;
}
