import { ToolseamError } from '../../core/errors.js';
import type { TurnRecord } from '../../core/session-store.js';
import { describeModel, modelDifference } from '../../core/turn-model.js';
import type { RuntimeOptions } from '../runtime-options.js';

/** A turn goes on with the model it started on: another one would be sent its whole conversation. */
export function refuseOtherModel(turn: TurnRecord, options: RuntimeOptions): void {
  const { provider, model } = options.model;
  const here = { provider, model, baseURL: options.modelBaseURL };
  if (modelDifference(turn, here) !== undefined) {
    throw new ToolseamError(
      'model_mismatch',
      `Turn ${turn.id} ran on ${describeModel(turn)}, not ${describeModel(here)}; resume it on the model it started on.`,
    );
  }
}
