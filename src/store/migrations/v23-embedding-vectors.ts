import type { Migration } from '../migrate.js';

/**
 * Tools' embeddings, kept so a restart embeds nothing it embedded before: under the embedding model
 * (`provider:model`) and the SHA-256 of the text embedded, as little-endian float32 bytes.
 */
export const v23EmbeddingVectors: Migration = {
  version: 23,
  name: 'embedding vectors',
  sql: `
    CREATE TABLE embedding_vectors (
      model TEXT NOT NULL,
      text_hash TEXT NOT NULL,
      dimensions INTEGER NOT NULL CHECK (dimensions > 0),
      vector BLOB NOT NULL CHECK (length(vector) = 4 * dimensions),
      written_at INTEGER NOT NULL,
      PRIMARY KEY (model, text_hash)
    ) STRICT;
  `,
};
