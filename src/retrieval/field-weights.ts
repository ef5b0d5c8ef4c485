/** BM25F weights: how much a match in each field counts, and how strongly each field's length damps it. */
export interface FieldWeights {
  readonly weight: readonly number[];
  readonly b: readonly number[];
  readonly k1: number;
}

/** Query terms by id, with their weights. */
export type WeightedTerms = Map<number, number>;
