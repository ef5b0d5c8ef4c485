import type { Migration } from '../../migrate.js';

/** Tools' embeddings by embedding model and text hash, as float32 bytes (the SQLite step 23's twin). */
export const v23EmbeddingVectors: Migration = {
  version: 23,
  name: 'embedding vectors',
  sql: `
    CREATE TABLE embedding_vectors (
      model TEXT NOT NULL,
      text_hash TEXT NOT NULL,
      dimensions INTEGER NOT NULL CHECK (dimensions > 0),
      vector BYTEA NOT NULL CHECK (octet_length(vector) = 4 * dimensions),
      written_at BIGINT NOT NULL,
      PRIMARY KEY (model, text_hash)
    );
  `,
};
